// The shape of a benchmark arm (what it loads, which tools and recovery routes it offers, how its fold
// measures are read) and what an arm's factories see when a run starts. Types only.

import type { AgentSession, ExtensionFactory } from "@earendil-works/pi-coding-agent";
import type { Plan } from "./plan.ts";
import type { PolicyOptions } from "./policy.ts";
import type { CommitCheck } from "./predictions.ts";
import type { RecallMetrics } from "./recall-metrics.ts";
import type { RecoveryRoute } from "./routes.ts";

/** What an arm's factories may look at when the run starts. */
export interface ArmEnv {
	plan: Plan;
	/** Working directory of the session (the materialized corpus). */
	workspace: string;
	/** Directory of the persistent session file. */
	sessionDir: string;
	/** Pi's agent directory of the run (pi-fold reads its global settings file there, never the user's). */
	agentDir: string;
	/** Serving context window of the model, in tokens. */
	window: number;
}

export interface ArmDefinition {
	name: string;
	description: string;
	/** Pi's native compaction on or off (with Pi's default reserve and keep-recent settings unless `compactionSettings`). */
	compaction: boolean;
	/** Pi's `compaction` settings the arm sets, as a user would in Pi's settings (native-tuned: `reserveTokens`). */
	compactionSettings?(env: ArmEnv): { reserveTokens?: number; keepRecentTokens?: number };
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
	/** Commits after the last reply (at the run's last boundary): no request shows their rewrite. */
	unseenCommits: number;
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
	/** Requests pi-fold's fence stopped before transmission. */
	fencedAborts: number;
	/** Cost scheduling: each commit's predicted fresh tokens of the next request, and the provider's bill for it. */
	commitChecks: CommitCheck[];
	/** The `providerTotalWindow` the arm set; null when none (pi-fold as installed: the model's window). */
	providerTotalWindow?: number | null;
	/** What reading folded history cost (searches, peeks, expands, bytes shown) and the fold tree's shape. */
	recall?: RecallMetrics;
}
