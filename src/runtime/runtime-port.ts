// The runtime as actions, commands and status reach it (RuntimePort): the part of FoldRuntime they
// may read, and `transaction`, the one way they record a decision. Types only.

import type { FoldRuntime } from "./runtime.ts";

/**
 * The runtime as actions, commands and status reach it: what they read, and `transaction`, the one
 * way to record a decision (under the lock). Nothing here commits, moves the window or sets state.
 */
export type RuntimePort = Pick<
	FoldRuntime,
	| "options"
	| "names"
	| "telemetry"
	| "receiptType"
	| "store"
	| "sync"
	| "snapshot"
	| "stablePrefixEnd"
	| "foldState"
	| "knownFolds"
	| "pauseReason"
	| "reportRefusals"
	| "notifyOnce"
	| "occupancy"
	| "windowEstimate"
	| "pricesAssumed"
	| "calibration"
	| "estimatedBudget"
	| "holdAutomatic"
	| "transaction"
>;
