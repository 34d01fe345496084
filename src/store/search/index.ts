// Search over stored fold sources: compile a query (query.ts), scan a blob in bounded memory
// (source-scan.ts), read, hash and scan each blob in one pass (blob-search.ts), and spread many blobs over worker
// threads with a time bound (search-pool.ts, search-worker.ts). FoldStore.search and the simulator's memory store
// build on these; bench/search-bench.ts measures them.

export {
	type BlobFailure,
	type BlobSearchOptions,
	type BlobSearchResult,
	SEARCH_READ_BYTES,
	type SearchItem,
	type SearchPart,
	type SearchTarget,
	searchBlobBytes,
	searchBlobFile,
	searchItem,
	searchParts,
	searchVerifiedBytes,
} from "./blob-search.ts";
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
	closeSearchPools,
	DEFAULT_SEARCH_WORKERS,
	type PoolItem,
	type PoolSearchOptions,
	type PoolSearchRun,
	SearchPool,
	SearchUnavailableError,
	searchWorkerUrl,
	sharedSearchPool,
} from "./search-pool.ts";
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
} from "./source-scan.ts";
