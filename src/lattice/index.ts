// Fold lattice layer: fold records, their content-derived ids and exact sources, nesting, the
// visible structure and span snapping. Pure; no Pi imports.

export type { BriefedKind, BriefSource, FoldKind, FoldRecord } from "./fold-types.ts";
export { NestingSet } from "./laminar.ts";
export { Lattice, LatticeError, type PlacedFold } from "./lattice.ts";
export {
	type FileRead,
	FOLD_READS_MAX,
	fileReadsOf,
	isFileReadTool,
	READ_PATH_MAX_CHARS,
	readResults,
	readSize,
	readsField,
	resultLineCount,
	type ShownRead,
} from "./reads.ts";
export { foldId, foldSource, parseFoldSource } from "./source.ts";
export { SpanError, snapSpan } from "./span.ts";
