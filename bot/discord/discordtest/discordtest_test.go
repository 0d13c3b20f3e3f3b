package discordtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
)

// rewrite sends discordgo's requests for https://discord.com/api/v9/ to the fake.
type rewrite struct{ base string }

func (rw rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	u := r.URL.String()
	if strings.HasPrefix(u, discordgo.EndpointAPI) {
		nr := r.Clone(r.Context())
		var err error
		nr.URL, err = nr.URL.Parse(rw.base + strings.TrimPrefix(u, discordgo.EndpointAPI))
		if err != nil {
			return nil, err
		}
		nr.Host = ""
		return http.DefaultTransport.RoundTrip(nr)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func session(t *testing.T, fake *discordtest.Server) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + fake.Token)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: rewrite{fake.APIURL()}}
	s.ShouldReconnectOnError = false
	s.Identify.Intents = discordgo.IntentsGuildMessages
	return s
}

func TestGatewayHandshakeAndDispatch(t *testing.T) {
	fake := discordtest.New(t)
	fake.HeartbeatInterval = 20 * time.Millisecond
	s := session(t, fake)
	got := make(chan *discordgo.MessageCreate, 1)
	s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })
	if err := s.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()

	if s.State.User == nil || s.State.User.ID != fake.BotUser.ID {
		t.Errorf("READY user = %+v, want id %s", s.State.User, fake.BotUser.ID)
	}
	var id struct {
		Token   string `json:"token"`
		Intents int    `json:"intents"`
	}
	if err := json.Unmarshal(fake.Identify(), &id); err != nil {
		t.Fatal(err)
	}
	if id.Token != "Bot "+fake.Token || id.Intents != int(discordgo.IntentsGuildMessages) {
		t.Errorf("IDENTIFY = %+v", id)
	}
	if err := fake.MessageCreate(&discordgo.Message{ID: "5", ChannelID: "7", Content: "hi", Author: &discordgo.User{ID: "9"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case m := <-got:
		if m.Content != "hi" || m.ChannelID != "7" {
			t.Errorf("MESSAGE_CREATE = %+v", m.Message)
		}
	case <-ctx.Done():
		t.Fatal("no MESSAGE_CREATE")
	}
	// Heartbeats are acknowledged: wait for a few and for discordgo to see the ACK.
	for fake.Heartbeats() < 3 {
		select {
		case <-ctx.Done():
			t.Fatal("no heartbeats")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestRESTAndRateLimit(t *testing.T) {
	fake := discordtest.New(t)
	s := session(t, fake)
	s.ShouldRetryOnRateLimit = false

	fake.RateLimit(1, 10*time.Millisecond, false, nil)
	_, err := s.ChannelMessageSend("7", "hello")
	var rl *discordgo.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 10*time.Millisecond {
		t.Fatalf("first send err = %v, want RateLimitError retry 10ms", err)
	}
	m, err := s.ChannelMessageSend("7", "hello")
	if err != nil {
		t.Fatal(err)
	}
	edited, err := s.ChannelMessageEdit("7", m.ID, "bye")
	if err != nil || edited.Content != "bye" {
		t.Fatalf("edit = %+v, %v", edited, err)
	}
	reqs := fake.Matching("", "/channels/7/messages")
	if len(reqs) != 3 || reqs[0].Status != 429 || reqs[1].Status != 200 {
		t.Errorf("requests = %+v", reqs)
	}
	if got := fake.Message(m.ID).Content; got != "bye" {
		t.Errorf("stored content = %q", got)
	}

	// Interaction callback then edit of @original.
	i := &discordgo.Interaction{ID: "11", AppID: fake.AppID, Token: "tok"}
	if err := s.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	}); err != nil {
		t.Fatal(err)
	}
	content := "done"
	if _, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatal(err)
	}
	if o := fake.Original("tok"); o == nil || o.Content != "done" || o.Flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("original = %+v", o)
	}
	if _, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more"}); err != nil {
		t.Fatal(err)
	}
	cmds, err := s.ApplicationCommandBulkOverwrite(fake.AppID, "42", []*discordgo.ApplicationCommand{{Name: "factcheck", Description: "d"}})
	if err != nil || len(cmds) != 1 || cmds[0].ID == "" || cmds[0].GuildID != "42" {
		t.Fatalf("overwrite = %+v, %v", cmds, err)
	}
}

// Buttons Discord refuses are refused: a link button needs a url and no
// custom_id, another button a custom_id and no url.
func TestButtonsChecked(t *testing.T) {
	fake := discordtest.New(t)
	s := session(t, fake)
	row := func(b discordgo.Button) []discordgo.MessageComponent {
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{b}}}
	}
	for _, tt := range []struct {
		b  discordgo.Button
		ok bool
	}{
		{discordgo.Button{Label: "Open", Style: discordgo.LinkButton, URL: "https://factbot.example/web/check/T/1?t=x"}, true},
		{discordgo.Button{Label: "Again", Style: discordgo.PrimaryButton, CustomID: "again:1"}, true},
		{discordgo.Button{Label: "Open", Style: discordgo.LinkButton, URL: "https://factbot.example/x", CustomID: "open"}, false},
		{discordgo.Button{Label: "Open", Style: discordgo.LinkButton, URL: "javascript:alert(1)"}, false},
		{discordgo.Button{Label: "Open", Style: discordgo.LinkButton, URL: "https://factbot.example/" + strings.Repeat("a", 512)}, false},
		{discordgo.Button{Label: "Open", Style: discordgo.PrimaryButton, URL: "https://factbot.example/x"}, false},
	} {
		_, err := s.ChannelMessageSendComplex("7", &discordgo.MessageSend{Content: "x", Components: row(tt.b)})
		if (err == nil) != tt.ok {
			t.Errorf("send %+v: err %v, want ok %v", tt.b, err, tt.ok)
		}
	}
}

func TestUnauthorized(t *testing.T) {
	fake := discordtest.New(t)
	s := session(t, fake)
	s.Token = "Bot wrong"
	if _, err := s.ChannelMessageSend("7", "x"); err == nil {
		t.Fatal("send with a wrong token succeeded")
	}
}
