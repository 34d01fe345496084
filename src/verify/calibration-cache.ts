// The per-machine cache of the engine calibration, so a fresh process (`pi-fold verify`, `hash`)
// chooses its engines without measuring (~20 ms and a Wasm load on its critical path). The first
// process with a given key measures and writes `<cache dir>/engines-v2-<16 hex of the key>.json`
// (0600, atomically); later ones read it. The key holds everything the choice depends on: the cache
// format, the Wasm core's build, Node and OpenSSL versions, platform, CPU model and feature flags,
// and the OPENSSL_ia32cap / PI_FOLD_WASM settings (masking SHA-NI gives another file). An entry older
// than CALIBRATION_MAX_AGE_MS, from the future, or malformed is measured again.
//
// Cache dir: $PI_FOLD_CACHE_DIR, else $XDG_CACHE_HOME/pi-fold, else ~/.cache/pi-fold (macOS:
// ~/Library/Caches/pi-fold; Windows: %LOCALAPPDATA%\pi-fold). PI_FOLD_CALIBRATION_CACHE=0 turns the
// cache off (measure in every process). A cache that cannot be written is not an error.
// Loading this module makes it the calibration provider of the hashing API's chooser
// (src/wasm/engines.ts). Does its own file I/O (sync: one small file).

import { closeSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { cpus, homedir } from "node:os";
import { join } from "node:path";
import { SCALAR_WASM_SHA256, SIMD_WASM_SHA256 } from "../wasm/core-wasm.generated.ts";
import { type EngineCalibration, measureEngines, setCalibrationProvider, sha256Hex } from "../wasm/index.ts";
import { readSmallFile } from "./safe-open.ts";

/** Format of the cache file; bump when EngineCalibration changes shape or meaning. */
export const CALIBRATION_CACHE_VERSION = 2;
/** Timings per measurement when the result is cached (best of 9: ~30 ms, once per machine and key). */
const CACHED_ROUNDS = 9;
/** A cached calibration older than this (30 days) is measured again. */
export const CALIBRATION_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** Where the calibration came from. */
export interface CachedCalibration {
	calibration: EngineCalibration;
	source: "cache" | "measured";
	/** The cache file (undefined when the cache is off). */
	path: string | undefined;
}

/** The cache folder, or undefined when PI_FOLD_CALIBRATION_CACHE=0. */
export function calibrationCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
	if (env.PI_FOLD_CALIBRATION_CACHE === "0") return undefined;
	if (env.PI_FOLD_CACHE_DIR) return env.PI_FOLD_CACHE_DIR;
	if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "pi-fold");
	if (process.platform === "darwin") return join(homedir(), "Library", "Caches", "pi-fold");
	if (process.platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "pi-fold");
	return join(homedir(), ".cache", "pi-fold");
}

/** The first processor's model name and feature flags (Linux: /proc/cpuinfo; elsewhere the model only). */
function cpuIdentity(): { model: string; flags: string } {
	if (process.platform === "linux") {
		try {
			const fd = openSync("/proc/cpuinfo", "r");
			const buf = Buffer.alloc(16 * 1024);
			const n = readSync(fd, buf, 0, buf.length, 0);
			closeSync(fd);
			const text = buf.subarray(0, n).toString("latin1");
			const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, "m").exec(text)?.[1]?.trim() ?? "";
			const model = field("model name") || field("Processor") || field("cpu model");
			return { model, flags: field("flags") || field("Features") };
		} catch {
			// fall through to os.cpus()
		}
	}
	return { model: cpus()[0]?.model.trim() ?? "unknown", flags: "" };
}

/** Everything the engine choice depends on. */
export function calibrationKey(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
	const cpu = cpuIdentity();
	return {
		format: String(CALIBRATION_CACHE_VERSION),
		core: `${SIMD_WASM_SHA256.slice(0, 16)}/${SCALAR_WASM_SHA256.slice(0, 16)}`,
		node: process.version,
		openssl: process.versions.openssl ?? "",
		platform: `${process.platform}-${process.arch}`,
		cpu: cpu.model,
		cpuFlags: sha256Hex(cpu.flags).slice(0, 16),
		opensslIa32cap: env.OPENSSL_ia32cap ?? "",
		wasmBackend: env.PI_FOLD_WASM ?? "",
	};
}

const isEngine = (v: unknown) => v === "node" || v === "wasm";
const isCost = (v: unknown) => {
	const c = v as { perCall?: unknown; perByte?: unknown } | null;
	return typeof c?.perCall === "number" && c.perCall >= 0 && typeof c.perByte === "number" && c.perByte >= 0;
};

function parseEntry(bytes: Uint8Array, key: Record<string, string>, now: number): EngineCalibration | undefined {
	const entry = JSON.parse(Buffer.from(bytes).toString("utf8")) as {
		key?: unknown;
		createdAt?: unknown;
		calibration?: Partial<EngineCalibration>;
	};
	const c = entry.calibration;
	if (JSON.stringify(entry.key) !== JSON.stringify(key) || typeof entry.createdAt !== "number") return undefined;
	if (entry.createdAt > now || now - entry.createdAt > CALIBRATION_MAX_AGE_MS) return undefined;
	if (!c || !isEngine(c.stream) || !isEngine(c.chunks) || !isCost(c.many?.node) || !isCost(c.many?.wasm))
		return undefined;
	const measured = typeof c.measured === "object" && c.measured !== null ? c.measured : {};
	return { stream: c.stream, chunks: c.chunks, many: c.many, measured } as EngineCalibration;
}

/**
 * The machine's calibration from the cache when a valid entry exists; otherwise measured now and
 * written there for the next process. Never throws for an unreadable or unwritable cache.
 */
export function cachedEngineCalibration(
	options: { dir?: string | undefined; env?: NodeJS.ProcessEnv; now?: number } = {},
): CachedCalibration {
	const env = options.env ?? process.env;
	const dir = "dir" in options ? options.dir : calibrationCacheDir(env);
	if (dir === undefined) return { calibration: measureEngines(), source: "measured", path: undefined };
	const key = calibrationKey(env);
	const id = sha256Hex(JSON.stringify(key)).slice(0, 16);
	const path = join(dir, `engines-v${CALIBRATION_CACHE_VERSION}-${id}.json`);
	const now = options.now ?? Date.now();
	try {
		const cached = parseEntry(readSmallFile(path, 64 * 1024), key, now);
		if (cached) return { calibration: cached, source: "cache", path };
	} catch {
		// absent, unreadable or malformed: measure
	}
	const calibration = measureEngines(CACHED_ROUNDS);
	const tmp = `${path}.${process.pid}.tmp`;
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		writeFileSync(tmp, `${JSON.stringify({ key, createdAt: now, calibration }, null, 2)}\n`, { mode: 0o600 });
		renameSync(tmp, path);
	} catch {
		try {
			rmSync(tmp, { force: true });
		} catch {
			// an unwritable cache is not an error
		}
	}
	return { calibration, source: "measured", path };
}

setCalibrationProvider(() => cachedEngineCalibration().calibration);
