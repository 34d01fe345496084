// Predicted against actual commit cost, per commit: a commit record under cost scheduling predicts
// the fresh tokens the next request will carry from the commit's first change on (its rewrite); the
// provider's bill for that next request (input + cache write, as the faux provider reports it) is
// what it actually carried fresh. Read from the session's entries after the run. Pure.

/** One commit's prediction and the bill of the request after it. */
export interface CommitCheck {
	readonly seq: number;
	/** Predicted fresh tokens of the next request (the commit record's `prediction.rewriteTokens`). */
	readonly predicted: number;
	/** Fresh tokens the provider billed for that request. */
	readonly actual: number;
}

interface EntryLike {
	readonly type: string;
	readonly customType?: string;
	readonly data?: unknown;
	readonly message?: { role?: string; usage?: { input?: number; cacheWrite?: number } };
}

/** Every commit with a prediction, paired with the usage of the first reply after it. */
export function commitChecks(entries: readonly EntryLike[], decisionType: string): CommitCheck[] {
	const out: CommitCheck[] = [];
	let open: { seq: number; predicted: number } | null = null;
	for (const e of entries) {
		const data = e.data as { kind?: string; seq?: number; prediction?: { rewriteTokens?: number } } | undefined;
		if (e.type === "custom" && e.customType === decisionType && data?.kind === "commit") {
			open =
				data.prediction?.rewriteTokens !== undefined
					? { seq: data.seq ?? 0, predicted: data.prediction.rewriteTokens }
					: null;
			continue;
		}
		const usage = e.type === "message" && e.message?.role === "assistant" ? e.message.usage : undefined;
		if (!open || !usage) continue;
		out.push({ ...open, actual: (usage.input ?? 0) + (usage.cacheWrite ?? 0) });
		open = null;
	}
	return out;
}

/** How far predictions fell from the bills: the worst and median relative error, and how many within `tolerance`. */
export function predictionError(checks: readonly CommitCheck[], tolerance = 0.1) {
	const errors = checks.filter((c) => c.actual > 0).map((c) => Math.abs(c.predicted - c.actual) / c.actual);
	errors.sort((a, b) => a - b);
	return {
		commits: errors.length,
		within: errors.filter((e) => e <= tolerance).length,
		median: errors.length === 0 ? 0 : (errors[Math.floor(errors.length / 2)] as number),
		worst: errors.at(-1) ?? 0,
	};
}
