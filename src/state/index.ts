// State layer: zod schemas of every persisted decision record, hash-chaining and keying, the check of
// one record, and replay of a branch's records into pi-fold's state (incrementally, through the
// DecisionLog). Pure; a host adapter reads and writes the entries, the runtime supplies the key.
export { CHAIN_KEY_BYTES, type ChainKey, chainKeyOf, chainRecord, heldDigest, recordDigest } from "./chain.ts";
export { DecisionLog, type LogRecord } from "./decision-log.ts";
export { applyDecisions, emptyState, type FoldState, type HeldRecord, replay } from "./record-replay.ts";
export {
	type Actor,
	type DecisionBody,
	type DecisionRecord,
	foldRecordSchema,
	parseDecisionRecord,
} from "./records.ts";
