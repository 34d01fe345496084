// The Pi adapter: the only layer that imports Pi. registerPiFold wires the runtime into Pi's hooks,
// registers the context tool and the two commands, and builds a runtime `Host` per call.
export { type PiFold, piChainKey, piHost } from "./host.ts";
export { type RegisterExtras, registerPiFold } from "./register.ts";
export type { BoundaryAuditEntry } from "./turn-end-forecast.ts";
