package storetest

// RequestCount is how many requests the store holds, over every tenant: a
// test's way to see that refused or redelivered events stored nothing.
func (m *Memory) RequestCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, tn := range m.tenants {
		n += len(tn.requests)
	}
	return n
}
