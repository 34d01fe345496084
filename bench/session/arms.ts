// The arm registry. An arm is one way of managing the window, run with the same plan and the same scripted policy:
// only its settings, extensions and extra recovery routes differ. `native` and `unmanaged` are built in; the pi-fold
// arms (`pifold-ladder`, `pifold-immediate`, `pifold-epoch`, `pifold-agent`, bench/session/pifold-arms.ts) are registered
// here too; `registerArm` takes further arms with their extension factories, tools, recovery routes and policy hooks.

import type { AgentSession, ExtensionFactory } from "@earendil-works/pi-coding-agent";
import { PIFOLD_ARMS } from "./pifold-arms.ts";
import type { Plan } from "./plan.ts";
import type { PolicyOptions } from "./policy.ts";
import type { RecoveryRoute } from "./routes.ts";

/** What an arm's factories may look at when the run starts. */
export interface ArmEnv {
	plan: Plan;
	/** Working directory of the session (the materialized corpus). */
	workspace: string;
	/** Directory of the persistent session file. */
	sessionDir: string;
	/** Serving context window of the model, in tokens. */
	window: number;
}

export interface ArmDefinition {
	name: string;
	description: string;
	/** Pi's native compaction (default reserve and keep-recent settings) on or off. */
	compaction: boolean;
	/** Extensions loaded next to the benchmark's own (pi-fold arms: `registerPiFold` with their options). */
	extensions?(env: ArmEnv): ExtensionFactory[];
	/** Tool names added to the session's allowlist (pi-fold arms: "active_context"). */
	tools?: string[];
	/** Recovery routes tried after the window and before rereading from disk (brief handle, peek, expand). */
	routes?: RecoveryRoute[];
	/** Calls made when handing in a stage (pifold-agent: mark spans the agent has finished with). */
	beforeSubmit?: PolicyOptions["beforeSubmit"];
	/** Adds file texts the arm can see another way to the policy's view (pi-fold: pages of a peeked fold). */
	augmentView?: PolicyOptions["augmentView"];
	/** Recovers listed files without a disk read where the arm can (pi-fold: peek the fold that holds them). */
	recoverFiles?: PolicyOptions["recoverFiles"];
	/** Fold events the arm performed, read after the run (0 for arms that do not fold). */
	foldEvents?(session: AgentSession, env: ArmEnv): number;
	/** pi-fold's measures of the run, read after it (pi-fold arms only). */
	metrics?(session: AgentSession, env: ArmEnv): FoldMetrics;
}

/** What a pi-fold arm did, read from the session's entries and pi-fold's runtime after the run. */
export interface FoldMetrics {
	/** Commit records: each is one rewrite of the window (a fold event). */
	commits: number;
	/** Folds in force at the end, and by origin. */
	folds: number;
	agentFolds: number;
	ladderFolds: number;
	/** Folds whose brief the session's model wrote (pi-fold's brief requests). */
	modelBriefs: number;
	/** Marks still pending at the end (epoch scheduling). */
	pendingMarks: number;
	/** Marks commits applied, by origin (epoch scheduling). */
	agentMarks: number;
	topUpMarks: number;
	/** The agent's calls of the context tool: successful folds, refused calls, peeks (and bytes), expands. */
	foldCalls: number;
	refusedCalls: number;
	peeks: number;
	peekBytes: number;
	expands: number;
	/** pi-fold's own observer: rewrites, and rewrites no commit caused (a bug). */
	rewrites: number;
	unattributedRewrites: number;
}

const registry = new Map<string, ArmDefinition>();

export function registerArm(arm: ArmDefinition): void {
	if (registry.has(arm.name)) throw new Error(`registerArm(): arm ${JSON.stringify(arm.name)} is already registered`);
	registry.set(arm.name, arm);
}

export function listArms(): ArmDefinition[] {
	return [...registry.values()];
}

export function getArm(name: string): ArmDefinition {
	const arm = registry.get(name);
	if (arm) return arm;
	throw new Error(`unknown arm ${JSON.stringify(name)}; known arms: ${[...registry.keys()].join(", ")}`);
}

registerArm({
	name: "native",
	description: "Pi's native compaction, default reserve (16,384) and keep-recent (20,000) tokens",
	compaction: true,
});

registerArm({
	name: "unmanaged",
	description: "no compaction and no folding: the window grows until the provider rejects a request",
	compaction: false,
});

for (const arm of PIFOLD_ARMS) registerArm(arm);
