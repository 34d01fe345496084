// Search over stored fold sources: compile a query (query.ts), scan a blob in bounded memory
// (scan.ts), read, hash and scan each blob in one pass (blob.ts), and spread many blobs over worker
// threads with a time bound (pool.ts, worker.ts). FoldStore.search and the simulator's memory store
// build on these; bench/search.ts measures them.

export {
	type BlobFailure,
	type BlobSearchOptions,
	type BlobSearchResult,
	SEARCH_READ_BYTES,
	type SearchTarget,
	searchBlobBytes,
	searchBlobFile,
} from "./blob.ts";
export {
	closeSearchPools,
	DEFAULT_SEARCH_WORKERS,
	type PoolItem,
	type PoolSearchOptions,
	type PoolSearchRun,
	SearchPool,
	SearchUnavailableError,
	searchWorkerUrl,
	sharedSearchPool,
} from "./pool.ts";
export {
	type CompiledQuery,
	type CompileResult,
	compileQuery,
	describeQuery,
	jsonEscaped,
	SEARCH_PATTERN_MAX_CHARS,
	type SearchQuery,
} from "./query.ts";
export {
	BlobScanner,
	EXCERPT_MATCH_BYTES,
	EXCERPT_SIDE_BYTES,
	LINE_CARRY_BYTES,
	REGEX_SPAN_BYTES,
	type ScanHit,
	type ScannerOptions,
	type ScanOutcome,
	ScanScratch,
} from "./scan.ts";
