// The human's adopt: vouch for the decision records replay holds on this branch (intact records that
// are not signed with this agent directory's key: an older pi-fold's unkeyed ones, or records signed
// in another agent directory or on another machine). It records one keyed `adopt` record naming how
// many records it vouches for and the hash of their digests, so the held records apply from then
// on and a record changed later is not covered. Only a command calls it; the agent's tool has no
// adopt. The runtime appends the record through the host.

import { nounFor } from "../common/index.ts";
import { type HeldRecord, heldDigest } from "../state/index.ts";
import type { ActionResult } from "./actions/shared.ts";
import type { Host } from "./ports.ts";
import type { RuntimePort } from "./runtime-port.ts";

/** "3 unkeyed (an older pi-fold's), 2 signed with key 0123456789abcdef" */
function origins(held: readonly HeldRecord[]): string {
	const unkeyed = held.filter((h) => h.record.kid === undefined).length;
	const keys = new Map<string, number>();
	for (const h of held) if (h.record.kid !== undefined) keys.set(h.record.kid, (keys.get(h.record.kid) ?? 0) + 1);
	const parts = unkeyed > 0 ? [`${unkeyed} unkeyed (an older pi-fold's)`] : [];
	for (const [kid, n] of keys) parts.push(`${n} signed with key ${kid}`);
	return parts.join(", ");
}

/** Adopts every held record of the host's branch (under the runtime's lock). */
export function adoptHeld(runtime: RuntimePort, host: Host): Promise<ActionResult> {
	return runtime.transaction(host, (decide) => {
		const held = runtime.sync(host).held;
		if (held.length === 0)
			return {
				text: "Nothing to adopt: no decision record on this branch is held (every one is signed with this agent directory's key, or refused as altered).",
				details: { action: "adopt", adopted: 0 },
			};
		const count = held.length;
		decide({
			kind: "adopt",
			actor: "human",
			count,
			held: heldDigest(held.map((h) => h.record.digest)),
		});
		const left = runtime.sync(host).held.length;
		if (left > 0)
			return {
				text: `adopt refused: ${left} records are still held; nothing was adopted.`,
				details: { action: "adopt", adopted: 0 },
				isError: true,
			};
		runtime.reportRefusals(host);
		return {
			text: `Adopted ${count} decision ${nounFor(count, "record")} (${origins(held)}): their decisions apply from now on; the next turn boundary brings the window in line. A record changed after this is not covered.`,
			details: { action: "adopt", adopted: count, entries: held.map((h) => h.entryId) },
		};
	});
}
