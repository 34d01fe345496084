// Replays a recorded Pi session through pi-fold's policy, offline and with no model calls: the
// branch's messages driven through a FoldRuntime over a simulated session (src/simulate `drive`,
// an in-memory fold store), each request billed by a positional prefix cache with the session's own
// idle times. The briefs the options would have the model write are priced as that model would bill
// them (their whole request fresh, no cache, at the session's prices), their text the built-in
// brief (replay-briefs.ts). A read the session made again of content it had already read, unchanged,
// is sent as the recall pi-fold's guidelines call for (what its search for the file says; under pi-fold
// the earlier read is still held), and the total with such reads sent as recorded is estimated beside
// it (replay-rereads.ts); in a session that ran pi-fold its agent already read them again under pi-fold,
// so they go as recorded. A pi-fold request the estimate puts over
// the window is reported as an overflow, never priced silently. The simulator counts characters / 4;
// to put its estimates in the session's own tokens, the session is also simulated as it ran
// (compactions and all) and an intercept and a slope are fitted from that simulation's request sizes
// to the file's recorded ones (replay-calibration.ts); that estimate of the session as it ran is what
// pi-fold's is compared with (both carry the same estimator error), and its bill beside the recorded
// one is the estimator's check. The runtime's meter is told the calibrated bills, as a live session learns the
// provider's counts, so the policy sizes its commits and its fence in the session's tokens. At each
// request both windows, pi-fold's and the session's as it ran, are read for how they hold the agent's
// working set (fidelity.ts), and pi-fold's can be handed to the caller as sent (`onWindow`).
// Pure apart from the in-memory store.

import { resolveOptions } from "../options/index.ts";
import { budgetFor, ratesAt } from "../policy/index.ts";
import { FoldRuntime, type ModelInfo } from "../runtime/index.ts";
import {
	type DriveOptions,
	drive,
	MemoryStore,
	PrefixCache,
	type ReplayMessage,
	type SimRequest,
	SimSession,
	type SimUsage,
} from "../simulate/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import { fidelityOf, watchFidelity } from "./fidelity.ts";
import { feedAsRecorded, replayMessages, systemPromptOf } from "./messages.ts";
import { ranSettingsOf, replaysBuiltInBriefs } from "./ran-settings.ts";
import { impliedPrices, type NativeFigures, nativeFigures, type Prices } from "./recorded-session.ts";
import { costOf, type EstimatedRequest, estimated, freshRate, type Pricing, peekRequests } from "./replay-bills.ts";
import { BriefMeter } from "./replay-briefs.ts";
import { type Calibration, calibratedBill, fitCalibration } from "./replay-calibration.ts";
import { findRereads, recallRereads } from "./replay-rereads.ts";
import { DEFAULT_CACHE_TTL_MS, DEFAULT_MAX_OUTPUT, type ReplayOptions, type ReplayResult } from "./replay-types.ts";
import type { SessionFile } from "./session-file.ts";

export {
	type AsRanEstimate,
	DEFAULT_CACHE_TTL_MS,
	DEFAULT_MAX_OUTPUT,
	type ReplayOptions,
	type ReplayResult,
	type ReplayWindow,
} from "./replay-types.ts";

type SimModel = ModelInfo & { readonly contextWindow: number; readonly maxTokens: number };
/** The recorded requests' and summaries' dollars: the file's own, else each request at `prices`, tier by tier. */
function recordedCost(native: NativeFigures, prices: Prices): ReplayResult["recordedCost"] {
	if (native.total.cost > 0)
		return { dollars: native.requests.cost, summaries: native.summaries.cost, from: "the file" };
	const at = (r: Omit<NativeFigures["prompts"][number], "prompt">, prompt: number) => {
		const t = ratesAt(prices, prompt);
		return (
			(r.input * t.input + r.cacheWrite * t.cacheWrite + r.cacheRead * t.cacheRead + r.output * t.output) / 1_000_000
		);
	};
	const s = native.summaries;
	return {
		dollars: native.prompts.reduce((n, p) => n + at(p, p.prompt), 0),
		// Summary requests are only summed in the file's figures: priced at the base rates.
		summaries: at(s, 0),
		from: "the prices",
	};
}

/** Called before each reply of the session as it ran, with the session as it stands (its window). */
type AsRanObserver = (entry: SessionFile["branch"][number], session: SimSession) => void;

/** The session as it ran, simulated: each billed reply's request size and cache bill, in simulator tokens. */
function simulateRecorded(file: SessionFile, model: SimModel, ttl: number, observe?: AsRanObserver) {
	const systemPrompt = systemPromptOf(file.branch);
	let clock = 0;
	const session = new SimSession({ model, systemPrompt, now: () => clock });
	const cache = new PrefixCache(ttl);
	const out: { prompt: number; fresh: number; cacheRead: number }[] = [];
	feedAsRecorded(file.branch, session, (entry, idleMs) => {
		clock += idleMs;
		observe?.(entry, session);
		if (entry.type !== "message" || !entry.message.usage) return;
		const system: TranscriptMessage = { role: "system", content: systemPrompt };
		const u = cache.request([system, ...session.llmMessages()], clock);
		out.push({ prompt: u.promptTokens, fresh: u.fresh, cacheRead: u.cacheRead });
	});
	return out;
}

/** What pi-fold's runtime holds after the replay: folds, commits, what they keep recoverable. */
function foldFigures(runtime: FoldRuntime, session: SimSession) {
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	const snap = runtime.snapshot(host);
	const folds = [...snap.state.folds.values()];
	const leaves = new Set(folds.flatMap((f) => f.leafIds));
	const roots = snap.lattice.roots.map((id) => snap.lattice.get(id)?.record.sourceBytes ?? 0);
	return {
		folds: folds.length,
		agentFolds: folds.filter((f) => f.origin === "agent").length,
		commits: snap.state.commitSeq,
		foldedEntries: leaves.size,
		foldedBytes: roots.reduce((a, b) => a + b, 0),
	};
}

/** The calibration (fitted from the simulator's count of the session as it ran to its recorded prompts) and the check. */
function calibrate(
	file: SessionFile,
	native: NativeFigures,
	model: SimModel,
	ttl: number,
	price: Pricing,
	observe?: AsRanObserver,
) {
	const recorded = simulateRecorded(file, model, ttl, observe);
	const calibration = fitCalibration(
		recorded.flatMap((r, i) => {
			const prompt = native.prompts[i]?.prompt;
			return prompt === undefined ? [] : [{ simulated: r.prompt, recorded: prompt }];
		}),
	);
	const check = { requests: recorded.length, prompt: 0, cacheRead: 0, fresh: 0, output: 0, cost: 0, peak: 0 };
	recorded.forEach((r, i) => {
		const c = calibratedBill(calibration, { promptTokens: r.prompt, cacheRead: r.cacheRead });
		check.prompt += c.prompt;
		check.cacheRead += c.cacheRead;
		check.fresh += c.fresh;
		check.peak = Math.max(check.peak, c.prompt);
		const output = native.prompts[i]?.output ?? 0;
		check.output += output;
		check.cost += costOf(c.fresh, c.cacheRead, output, price.prices, price.fresh);
	});
	return { calibration, check };
}

/** `messages` (the branch's, or a variant) driven through a FoldRuntime over a simulated session, no model calls. */
async function runPiFold(
	file: SessionFile,
	messages: readonly ReplayMessage[],
	options: ReplayOptions,
	model: SimModel,
	ttl: number,
	calibration: Calibration,
	resultFor?: DriveOptions["resultFor"],
	onRequest?: (request: SimRequest, sent: readonly TranscriptMessage[], session: SimSession) => void,
) {
	const resolved = resolveOptions({
		// A session that ran pi-fold with built-in briefs only is replayed with them, unless the caller says otherwise.
		...(replaysBuiltInBriefs(file.entries, options.options) ? { summarizer: "deterministic" as const } : {}),
		...options.options,
		...(options.scheduling ? { foldScheduling: options.scheduling } : {}),
		summarizeContextSpan: undefined,
	});
	const runtime = new FoldRuntime(resolved, () => new MemoryStore());
	// No model calls: a brief the model would write is metered, and its text is the built-in brief.
	const briefs = new BriefMeter();
	const session = new SimSession({
		model,
		systemPrompt: systemPromptOf(file.branch),
		...(resolved.summarizer === "deterministic" ? {} : { writeBrief: briefs.writer() }),
	});
	// The meter learns the provider's counts from the calibrated bills, as a live session would.
	const bill = (u: SimUsage): SimUsage => {
		const c = calibratedBill(calibration, u);
		return { promptTokens: c.prompt, cacheRead: c.cacheRead, fresh: c.fresh, output: u.output };
	};
	const result = await drive(runtime, session, messages, {
		cacheTtlMs: ttl,
		bill,
		...(resultFor ? { resultFor } : {}),
		...(onRequest
			? { onRequest: (r: SimRequest, sent: readonly TranscriptMessage[]) => onRequest(r, sent, session) }
			: {}),
	});
	return { runtime, session, result, briefs };
}

/** Replays `file` through pi-fold; see the module comment for what is estimated and how. */
export async function replaySession(file: SessionFile, options: ReplayOptions): Promise<ReplayResult> {
	const native = nativeFigures(file.branch);
	const prices = options.prices ?? impliedPrices(file.branch);
	const price: Pricing = { prices, fresh: freshRate(native) };
	const ttl = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
	// The session's prices and cache lifetime, as pi-fold's cost scheduling reads them from a model.
	const priced = prices.input + prices.output + prices.cacheRead + prices.cacheWrite > 0;
	const model = {
		contextWindow: options.window,
		maxTokens: options.maxOutput ?? DEFAULT_MAX_OUTPUT,
		cacheTtlMs: ttl,
		...(priced ? { cost: prices } : {}),
	};
	const messages = replayMessages(file.branch, file.entries);
	const systemPrompt = systemPromptOf(file.branch);
	// The working set's windows: the session's as it ran (in the estimator's check), and pi-fold's.
	const watch = watchFidelity(file.branch, messages, systemPrompt);
	const { calibration, check } = calibrate(file, native, model, ttl, price, (entry, session) => {
		const at = watch.indexOf(entry.id);
		if (at !== undefined && entry.type === "message" && entry.message.role === "assistant")
			watch.asRan.observe(at, session.entries);
	});
	let sent = 0;
	let unmatched = 0;
	const system: TranscriptMessage[] = systemPrompt ? [{ role: "system", content: systemPrompt }] : [];
	const onRequest = (r: SimRequest, conversation: readonly TranscriptMessage[], session: SimSession) => {
		if (watch.pifold.observe(r.at, session.entries).size !== conversation.length) unmatched++;
		const tokens = Math.round(calibratedBill(calibration, r).prompt);
		const reply = watch.replyOf(r.at);
		options.onWindow?.({ request: ++sent, reply, tokens, messages: [...system, ...conversation] });
	};
	// The session's unchanged rereads go as the recall pi-fold's guidelines call for (its search for the file),
	// unless the session ran pi-fold: then its agent read them again under pi-fold, and they go as recorded.
	const { ranPiFold } = ranSettingsOf(file.entries);
	const rereads = findRereads(messages);
	const recall = recallRereads(ranPiFold ? new Map() : rereads.paths);
	const run = await runPiFold(file, messages, options, model, ttl, calibration, recall.resultFor, onRequest);
	const own = estimated(run.result.requests, messages, calibration, prices, price.fresh);
	const requests = [...own, ...peekRequests(recall.followUps, messages, run.result.requests, calibration, price)].sort(
		(a, b) => a.reply - b.reply,
	);
	// The same replay with those reads sent as recorded, for the figure beside it.
	const asRecorded =
		rereads.reads === 0 || ranPiFold ? null : await runPiFold(file, messages, options, model, ttl, calibration);
	const totalOf = (r: readonly EstimatedRequest[], briefs: BriefMeter) =>
		r.reduce((n, q) => n + q.cost, 0) + briefs.bill(calibration.slope, prices).cost;
	const costAsRecorded =
		asRecorded === null
			? null
			: totalOf(estimated(asRecorded.result.requests, messages, calibration, prices, price.fresh), asRecorded.briefs);
	const total = (pick: (r: EstimatedRequest) => number) => requests.reduce((n, r) => n + pick(r), 0);
	// pi-fold's limit as the runtime computes it (the reserve capped below the window).
	const serving = budgetFor(model, undefined);
	const budget = serving.budgetTokens;
	const overflows = requests.filter((r) => r.prompt > options.window).map((r) => r.reply);
	const recorded = recordedCost(native, prices);
	const briefs = run.briefs.bill(calibration.slope, prices);
	const fidelity = fidelityOf(watch.pifold.figures(), watch.asRan.figures(), own, price, {
		pifold: total((r) => r.cost) + briefs.cost,
		asRan: check.cost + recorded.summaries,
	});
	const problems = [...run.result.errors];
	if (unmatched > 0)
		problems.push(
			`the working-set measure read ${unmatched} windows apart from the messages sent; its figures may be off`,
		);
	const stopped = `pi-fold's fence would have stopped the session at reply ${requests.length + 1}: no lossless fold could bring that request under pi-fold's limit of ${budget.toLocaleString("en-US")} tokens`;
	return {
		sessionId: file.id,
		version: file.version,
		model: native.model,
		ranPiFold,
		ranBuiltInBriefs: replaysBuiltInBriefs(file.entries, options.options),
		window: options.window,
		maxOutput: serving.outputReservation,
		outputCap: model.maxTokens,
		reservationFrom: serving.reservationFrom,
		windowFrom: options.limitsFrom?.window ?? "given",
		maxOutputFrom: options.limitsFrom?.maxOutput ?? (options.maxOutput === undefined ? "pi-fold's default" : "given"),
		budget,
		prices,
		pricesFrom: options.prices ? "the prices given" : "the file's own costs",
		messages: messages.length,
		native,
		recordedCost: recorded,
		calibration,
		check,
		pifold: {
			requests,
			prompt: total((r) => r.prompt),
			fresh: total((r) => r.fresh),
			cacheRead: total((r) => r.cacheRead),
			output: total((r) => r.output),
			cost: total((r) => r.cost),
			peak: requests.reduce((m, r) => Math.max(m, r.prompt), 0),
			...foldFigures(run.runtime, run.session),
			briefs,
			heldRereads: {
				reads: rereads.reads,
				chars: rereads.chars,
				...recall.sent,
				asRecorded: rereads.reads - recall.sent.searched - recall.sent.inView,
				ranPiFold,
				costAsRecorded,
			},
			overflows,
			stopped: run.result.stopped ? stopped : null,
			problems,
			divergences: run.result.divergences,
		},
		fidelity,
	};
}
