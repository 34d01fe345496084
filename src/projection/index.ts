// Projection layer: the edits a fold state implies and what a commit must return, the placeholder
// text, the projection-candidate records, and the per-request window observer that measures the
// append-only invariant. Pure.
export { DEFAULT_SOURCE_BYTES_PER_TOKEN, type ProjectionCandidate, projectionCandidates } from "./candidates.ts";
export { editsToCommit, type ImpliedEdit, impliedEdits, type Replacement } from "./edits.ts";
export { type PlaceholderNames, renderPlaceholder } from "./placeholder.ts";
export {
	NO_MOVES,
	type RequestObservation,
	type Usage,
	type WindowCounters,
	type WindowMoves,
	WindowObserver,
} from "./window.ts";
