package factcheck

// labelGuide defines the four labels for every prompt that gives one, as
// AVeriTeC's annotation guidelines do: a claim is refuted not only when a
// source says otherwise but also when the record that would exist if it
// were true (an official register, the speaker's own statements, the
// coverage such an event gets) was searched and shows otherwise or
// nothing; it is unverifiable when the sources that would settle it could
// not be found.
const labelGuide = `Labels:
- supported: reliable sources confirm the claim.
- contradicted: reliable sources refute the substantial part of the claim, or the record that would exist if it were true (an official register or database, the speaker's own statements or accounts, the coverage such an event would get) was found and shows otherwise or nothing.
- contested: the evidence conflicts, or the claim is technically true but misleading (cherry-picked, or omitting context that changes its meaning), e.g. "Crime fell 10% under the mayor" when it fell as much everywhere.
- unverifiable: the sources that would settle the claim could not be found, or it is not checkable; finding nothing is unverifiable unless it is the record that would have to mention the claim.`
