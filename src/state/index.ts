// State layer: zod schemas of every persisted decision record, hash-chaining and keying, the check of
// one record, and replay of a branch's records into pi-fold's state (incrementally, through the
// DecisionLog). Pure; a host adapter reads and writes the entries, the runtime supplies the key.
export { CHAIN_KEY_BYTES, type ChainKey, chainKeyOf, chainRecord, heldDigest, recordDigest } from "./chain.ts";
export { DecisionLog, type LogRecord } from "./decision-log.ts";
export { type CheckedRecord, checkRecord } from "./record-check.ts";
export {
	applyDecisions,
	emptyState,
	type FoldState,
	type HeldRecord,
	type PendingMark,
	type Refusal,
	replay,
} from "./record-replay.ts";
export {
	type Actor,
	actorSchema,
	type DecisionBody,
	type DecisionKind,
	type DecisionRecord,
	type FoldRecordData,
	foldRecordSchema,
	LEGACY_RECORD_VERSION,
	parseDecisionBody,
	parseDecisionRecord,
	RECORD_VERSION,
} from "./records.ts";
