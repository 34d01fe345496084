// State layer: zod schemas of every persisted decision record, hash-chaining, and replay of a
// branch's records into pi-fold's state (incrementally, through the DecisionLog). Pure; a host
// adapter reads and writes the entries.
export { chainRecord, recordDigest } from "./chain.ts";
export { DecisionLog, type LogRecord } from "./decision-log.ts";
export {
	type Actor,
	actorSchema,
	type DecisionBody,
	type DecisionKind,
	type DecisionRecord,
	type FoldRecordData,
	foldRecordSchema,
	parseDecisionBody,
	parseDecisionRecord,
	RECORD_VERSION,
} from "./records.ts";
export { emptyState, type FoldState, type PendingMark, type Refusal, replay } from "./replay.ts";
