// Fold lattice layer: fold records, their content-derived ids and exact sources, nesting, the
// visible structure and span snapping. Pure; no Pi imports.

export type { BriefedKind, BriefSource, FoldChild, FoldKind, FoldOrigin, FoldRecord } from "./fold-types.ts";
export { Lattice, LatticeError, type PlacedFold, type VisibleItem } from "./lattice.ts";
export {
	type FileRead,
	FOLD_READS_MAX,
	fileReadsOf,
	isFileReadTool,
	READ_PATH_MAX_CHARS,
	type ReadResult,
	readResults,
	readsField,
	type ShownRead,
	shownRead,
} from "./reads.ts";
export { FOLD_ID_HEX, foldId, foldSource, parseFoldSource } from "./source.ts";
export { type SnappedSpan, SpanError, type SpanRequest, snapSpan } from "./span.ts";
