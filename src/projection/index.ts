// Projection layer: the edits a fold state implies and what a commit must return, the placeholder
// text, the projection-candidate records, and the per-request window observer that measures the
// append-only invariant. Pure.
export {
	type CandidateFold,
	DEFAULT_SOURCE_BYTES_PER_TOKEN,
	type ProjectionCandidate,
	projectionCandidates,
} from "./candidates.ts";
export { editsToCommit, type ImpliedEdit, type ImpliedEditsInput, impliedEdits, type Replacement } from "./edits.ts";
export { type PlaceholderNames, renderPlaceholder } from "./placeholder.ts";
export {
	CACHE_MISS_TOLERANCE,
	NO_MOVES,
	type RequestKind,
	type RequestObservation,
	type RewriteCause,
	type Usage,
	type WindowCounters,
	type WindowMoves,
	WindowObserver,
} from "./window.ts";
