// A CPU profile of a stretch of this process (node:inspector's sampling profiler), summarized: the
// sampled time in all, the share spent in functions of a folder (the extension's own source), and
// that folder's functions with the most self time. Used by the request-latency benchmark; nothing
// here changes what is profiled except the sampling itself.

import { Session } from "node:inspector/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

interface ProfileNode {
	readonly id: number;
	readonly callFrame: {
		readonly functionName: string;
		readonly url: string;
		readonly lineNumber: number;
	};
	readonly hitCount?: number;
}

interface CpuProfile {
	readonly nodes: readonly ProfileNode[];
	readonly startTime: number;
	readonly endTime: number;
	readonly samples?: readonly number[];
	readonly timeDeltas?: readonly number[];
}

/** One function's self time in a profile. */
export interface FunctionTime {
	/** `name (file:line)`, the file relative to the folder's parent. */
	readonly name: string;
	readonly selfMs: number;
}

export interface ProfileSummary {
	/** Sampled time in all (ms). */
	readonly totalMs: number;
	/** Self time in functions of the folder (ms). */
	readonly folderMs: number;
	/** The folder's functions by self time, most first. */
	readonly top: readonly FunctionTime[];
}

/** Self time per profile node (ms): each sample is charged the time until the next one. */
function selfTimes(profile: CpuProfile): Map<number, number> {
	const out = new Map<number, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let i = 0; i < samples.length; i++) {
		const node = samples[i] as number;
		const us = deltas[i + 1] ?? 0;
		out.set(node, (out.get(node) ?? 0) + us / 1000);
	}
	return out;
}

/** Summarizes `profile`: functions whose file is under `folder` (an absolute path), the `top` of them. */
export function summarize(profile: CpuProfile, folder: string, top: number): ProfileSummary {
	const self = selfTimes(profile);
	const byFunction = new Map<string, number>();
	let totalMs = 0;
	let folderMs = 0;
	const base = `${folder}/`;
	for (const node of profile.nodes) {
		const ms = self.get(node.id) ?? 0;
		totalMs += ms;
		const url = node.callFrame.url;
		if (!url.startsWith("file://")) continue;
		const file = fileURLToPath(url);
		if (!file.startsWith(base)) continue;
		folderMs += ms;
		const where = `${relative(`${folder}/..`, file)}:${node.callFrame.lineNumber + 1}`;
		const name = `${node.callFrame.functionName || "(anonymous)"} (${where})`;
		byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
	}
	const ranked = [...byFunction]
		.map(([name, selfMs]) => ({ name, selfMs }))
		.sort((a, b) => b.selfMs - a.selfMs)
		.slice(0, top);
	return { totalMs, folderMs, top: ranked };
}

/** Runs `fn` under the sampling profiler (`intervalUs` between samples); returns its result and the profile. */
export async function profiled<T>(fn: () => Promise<T>, intervalUs = 500): Promise<{ result: T; profile: CpuProfile }> {
	const session = new Session();
	session.connect();
	try {
		await session.post("Profiler.enable");
		await session.post("Profiler.setSamplingInterval", { interval: intervalUs });
		await session.post("Profiler.start");
		const outcome = await fn().then(
			(value) => ({ ok: true as const, value }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		const { profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile };
		if (!outcome.ok) throw outcome.error;
		return { result: outcome.value, profile };
	} finally {
		session.disconnect();
	}
}
