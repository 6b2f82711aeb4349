package board

// HotMinUp is the hot rule's vote mark, for the schema test.
const HotMinUp = hotMinUp
