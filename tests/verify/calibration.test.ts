import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	CALIBRATION_MAX_AGE_MS,
	cachedEngineCalibration,
	calibrationCacheDir,
	calibrationKey,
} from "../../src/verify/index.ts";
import { tempDir } from "./helpers.ts";

describe("the per-machine engine calibration cache", () => {
	it("measures once, writes a 0600 file keyed by machine and settings, then reads it back", () => {
		const dir = join(tempDir(), "cache");
		const first = cachedEngineCalibration({ dir, env: {} });
		expect(first.source).toBe("measured");
		expect(readdirSync(dir)).toEqual([expect.stringMatching(/^engines-v2-[0-9a-f]{16}\.json$/)]);
		expect(statSync(first.path as string).mode & 0o777).toBe(0o600);
		const second = cachedEngineCalibration({ dir, env: {} });
		expect(second).toEqual({ ...first, source: "cache" });
		const entry = JSON.parse(readFileSync(first.path as string, "utf8")) as { key: Record<string, string> };
		expect(entry.key).toEqual(calibrationKey({}));
		expect(Object.keys(entry.key)).toEqual(
			expect.arrayContaining(["format", "core", "node", "openssl", "cpu", "cpuFlags", "opensslIa32cap"]),
		);
	});

	it("keeps a separate entry when SHA-NI is masked for OpenSSL, and measures again when stale or damaged", () => {
		const dir = tempDir();
		const plain = cachedEngineCalibration({ dir, env: {} });
		const masked = cachedEngineCalibration({ dir, env: { OPENSSL_ia32cap: ":~0x20000000" } });
		expect(masked.source).toBe("measured");
		expect(masked.path).not.toBe(plain.path);
		const later = Date.now() + CALIBRATION_MAX_AGE_MS + 1000;
		expect(cachedEngineCalibration({ dir, env: {}, now: later }).source).toBe("measured");
		writeFileSync(masked.path as string, "{ not json");
		expect(cachedEngineCalibration({ dir, env: { OPENSSL_ia32cap: ":~0x20000000" } }).source).toBe("measured");
		const entry = JSON.parse(readFileSync(plain.path as string, "utf8"));
		entry.calibration.stream = "gpu";
		writeFileSync(plain.path as string, JSON.stringify(entry));
		expect(cachedEngineCalibration({ dir, env: {} }).source).toBe("measured");
	});

	it("lives where the environment says, or nowhere when turned off; an unwritable folder is not an error", () => {
		expect(calibrationCacheDir({ PI_FOLD_CACHE_DIR: "/x/y" })).toBe("/x/y");
		expect(calibrationCacheDir({ XDG_CACHE_HOME: "/c" })).toBe(join("/c", "pi-fold"));
		expect(calibrationCacheDir({ PI_FOLD_CALIBRATION_CACHE: "0", PI_FOLD_CACHE_DIR: "/x" })).toBeUndefined();
		expect(cachedEngineCalibration({ dir: undefined }).path).toBeUndefined();
		const file = join(tempDir(), "a-file");
		writeFileSync(file, "");
		expect(cachedEngineCalibration({ dir: join(file, "sub"), env: {} }).source).toBe("measured");
	});
});
