// What the runtime tells the human out of band, each thing once per session: a notice by key, the
// decision records the branch refused (with the pause they cause), and a commit's refused folds
// (kept for status too). Writes only through the host's `notify`.

import type { Host } from "./ports.ts";
import type { Telemetry } from "./telemetry.ts";

type Level = "info" | "warning" | "error";

export class OnceNotices {
	private readonly told = new Set<string>();

	/** Tells the human `message`, once per `key` this session. */
	once(host: Pick<Host, "notify">, key: string, message: string, level: Level): void {
		if (this.told.has(key)) return;
		this.told.add(key);
		host.notify(message, level);
	}

	/** Tells the human `pause` once for refused records not told yet (by entry id). */
	refusals(host: Pick<Host, "notify">, refused: readonly { entryId: string }[], pause: string): void {
		const fresh = refused.filter((r) => !this.told.has(r.entryId));
		if (fresh.length === 0) return;
		for (const r of fresh) this.told.add(r.entryId);
		host.notify(pause, "warning");
	}

	/** Keeps a commit's refused folds for status and names each once. */
	commitRefusals(
		host: Pick<Host, "notify">,
		telemetry: Telemetry,
		refused: readonly { foldId: string; reason: string }[],
	): void {
		telemetry.recordCommitRefusals(refused);
		for (const r of refused)
			this.once(host, `commit:${r.foldId}:${r.reason}`, `fold ${r.foldId} stays collapsed: ${r.reason}`, "error");
	}
}
