// The arm registry. An arm is one way of managing the window, run with the same plan and the same scripted policy:
// only its settings, extensions and extra recovery routes differ. `native` and `unmanaged` are built in; the pi-fold
// arms (`pifold-immediate`, `pifold-epoch`, `pifold-agent`) are registered by the issues that build them, by
// calling `registerArm` with their extension factories, tools, recovery routes and policy hooks.

import type { AgentSession, ExtensionFactory } from "@earendil-works/pi-coding-agent";
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
	/** Fold events the arm performed, read after the run (0 for arms that do not fold). */
	foldEvents?(session: AgentSession, env: ArmEnv): number;
}

/** Arms the following issues add; named here so `--arms` can say why they are not available yet. */
export const PLANNED_ARMS: readonly string[] = ["pifold-immediate", "pifold-epoch", "pifold-agent"];

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
	if (PLANNED_ARMS.includes(name)) throw new Error(`arm ${JSON.stringify(name)} is planned but not built yet`);
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
