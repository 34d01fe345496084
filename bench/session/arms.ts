// The arm registry. An arm is one way of managing the window, run with the same plan and the same scripted policy:
// only its settings, extensions and extra recovery routes differ. `native`, `native-tuned` (Pi's compaction set to
// trigger below the long-context tier, as a cost-aware user would set it) and `unmanaged` are built in; the pi-fold
// arms (`pifold-ladder`, `pifold-immediate`, `pifold-epoch`, `pifold-agent`, `pifold-agent-272k`,
// `pifold-ladder-blind`, bench/session/pifold-arms.ts) are registered here too; `registerArm` takes
// further arms with their extension factories, tools, recovery routes and policy hooks.

import type { ArmDefinition } from "./arm-types.ts";
import { PI_DEFAULT_RESERVE_TOKENS, tunedReserveTokens } from "./native-baseline.ts";
import { PIFOLD_ARMS } from "./pifold-arms.ts";

export type { ArmDefinition, ArmEnv, FoldMetrics } from "./arm-types.ts";
export { PI_DEFAULT_RESERVE_TOKENS, tunedReserveTokens };

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
	name: "native-tuned",
	description:
		"Pi's native compaction set through Pi's settings (compaction.reserveTokens) to trigger below the long-context tier where the window reaches past it; otherwise Pi's defaults",
	compaction: true,
	compactionSettings: (env) => ({ reserveTokens: tunedReserveTokens(env.window) }),
});

registerArm({
	name: "unmanaged",
	description: "no compaction and no folding: the window grows until the provider rejects a request",
	compaction: false,
});

for (const arm of PIFOLD_ARMS) registerArm(arm);
