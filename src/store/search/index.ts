// Search over stored fold sources: compile a query (query.ts), scan a blob in bounded memory
// (source-scan.ts), read, hash and scan each blob in one pass (blob-search.ts), and spread many blobs over worker
// threads with a time bound (search-pool.ts, search-worker.ts). FoldStore.search and the simulator's memory store
// build on these; bench/search-bench.ts measures them.

export {
	type BlobSearchResult,
	type SearchTarget,
	searchBlobBytes,
	searchBlobFile,
	searchVerifiedBytes,
} from "./blob-search.ts";
export { type CompiledQuery, compileQuery, SEARCH_PATTERN_MAX_CHARS } from "./query.ts";
export { closeSearchPools, type PoolItem, type PoolSearchRun, SearchPool, sharedSearchPool } from "./search-pool.ts";
export { BlobScanner, type ScanHit } from "./source-scan.ts";
