import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { HeadwayError, describeIssues, toValidationIssues } from "@headway/protocol";
import { z } from "zod";
import { parseDocument } from "yaml";
//#region src/estimate-progress.ts
/**
* The naive roundtrip estimate: how far a run is after `roundtrip` of at most
* `maxRoundtrips` model calls, with half a roundtrip credited once its tools run.
*
* It is the baseline every other source improves on; the exact formula is relied on by
* other packages: `min(99, round(roundtrip / maxRoundtrips * 100 + (phase === 'tools' ? 50 / maxRoundtrips : 0)))`.
*
* @throws {RangeError} naming the argument, for non-finite or negative input or `maxRoundtrips <= 0`.
* @example
* ```ts
* estimateProgress(2, 10, 'tools'); // 25
* ```
*/
function estimateProgress(roundtrip, maxRoundtrips, phase) {
	if (!Number.isFinite(roundtrip) || roundtrip < 0) throw new RangeError(`estimateProgress: roundtrip must be a finite number >= 0, got ${String(roundtrip)}`);
	if (!Number.isFinite(maxRoundtrips) || maxRoundtrips <= 0) throw new RangeError(`estimateProgress: maxRoundtrips must be a finite number > 0, got ${String(maxRoundtrips)}`);
	const given = phase;
	if (given !== "llm" && given !== "tools") throw new RangeError(`estimateProgress: phase must be 'llm' or 'tools', got ${given}`);
	const half = phase === "tools" ? 50 / maxRoundtrips : 0;
	return Math.min(99, Math.round(roundtrip / maxRoundtrips * 100 + half));
}
//#endregion
//#region src/step-ranges.ts
/**
* Lays weighted steps out over `start`–`end` (default 10–90) in proportion to their
* weights: `stepStart = start + cumulativeWeight / totalWeight * (end - start)`.
*
* @throws {RangeError} naming the step whose weight is zero, negative or not finite, or
* naming the bound when `start`/`end` are not finite with `start <= end`.
* @example
* ```ts
* computeStepRanges([{ name: 'a', weight: 20 }, { name: 'b', weight: 60 }, { name: 'c', weight: 20 }]);
* // a: 10–26, b: 26–74, c: 74–90
* ```
*/
function computeStepRanges(steps, options = {}) {
	const start = options.start ?? 10;
	const end = options.end ?? 90;
	if (!Number.isFinite(start)) throw new RangeError(`computeStepRanges: start must be finite, got ${String(start)}`);
	if (!Number.isFinite(end) || end < start) throw new RangeError(`computeStepRanges: end must be finite and >= start, got ${String(end)}`);
	let total = 0;
	for (const [i, step] of steps.entries()) {
		if (!Number.isFinite(step.weight) || step.weight <= 0) throw new RangeError(`computeStepRanges: step ${i} ("${step.name}") has weight ${String(step.weight)}; expected a positive finite number`);
		total += step.weight;
	}
	const span = end - start;
	let cumulative = 0;
	return steps.map((step) => {
		const stepStart = start + cumulative / total * span;
		const stepEnd = stepStart + step.weight / total * span;
		cumulative += step.weight;
		return {
			name: step.name,
			weight: step.weight,
			start: stepStart,
			end: stepEnd
		};
	});
}
//#endregion
//#region src/map-progress-to-range.ts
/**
* Maps a local 0–100 percent into a parent's slice, so a worker's 50% inside a 30–60
* step shows as 45% overall. Local values outside 0–100 are clamped first.
*
* @throws {RangeError} when `local` or either bound is not a finite number.
* @example
* ```ts
* mapProgressToRange(50, { start: 30, end: 60 }); // 45
* ```
*/
function mapProgressToRange(local, range) {
	if (Number.isNaN(local)) throw new RangeError("mapProgressToRange: local must be a number, got NaN");
	if (!Number.isFinite(range.start)) throw new RangeError(`mapProgressToRange: range.start must be finite, got ${String(range.start)}`);
	if (!Number.isFinite(range.end)) throw new RangeError(`mapProgressToRange: range.end must be finite, got ${String(range.end)}`);
	const clamped = Math.min(100, Math.max(0, local));
	return Math.round(range.start + clamped / 100 * (range.end - range.start));
}
//#endregion
//#region src/estimator-error.ts
/**
* Thrown when estimator input from outside the program (an agent.json, a WORKFLOW.md, a
* saved tracker state) is invalid; the message names the file or line and the path.
*/
var EstimatorError = class extends HeadwayError {
	constructor(code, message, issues = [], options) {
		super(code, message, {
			...options,
			issues
		});
		this.name = "EstimatorError";
	}
};
//#endregion
//#region src/progress-config.ts
const weightedStepSchema = z.strictObject({
	name: z.string({ error: "expected a string" }).min(1, { error: "expected a non-empty string" }),
	weight: z.number({ error: "expected a positive number" }).refine((n) => Number.isFinite(n) && n > 0, { error: "expected a positive number" })
});
/**
* Validates the `progress` block of an agent.json and fills its defaults.
*
* @example
* ```ts
* progressConfigSchema.parse({}); // { aiDriven: true, fallbackSteps: [] }
* ```
*/
const progressConfigSchema = z.strictObject({
	aiDriven: z.boolean({ error: "expected true or false" }).default(true),
	fallbackSteps: z.array(weightedStepSchema, { error: "expected an array of { name, weight }" }).default([])
});
const agentFileSchema = z.looseObject({ progress: progressConfigSchema.optional() });
/**
* Reads an agent.json and returns its validated `progress` block (defaults when absent).
*
* @throws {EstimatorError} `ESTIMATOR_INVALID_CONFIG` naming the file and the JSON path,
* e.g. `agent.json: progress.fallbackSteps[1].weight: expected a positive number`.
* @example
* ```ts
* const { aiDriven, fallbackSteps } = await loadProgressConfig('./agent.json');
* ```
*/
async function loadProgressConfig(path) {
	const file = basename(path);
	let text;
	try {
		text = await readFile(path, "utf8");
	} catch (cause) {
		throw new EstimatorError("ESTIMATOR_INVALID_CONFIG", `${file}: cannot be read (${cause instanceof Error ? cause.message : String(cause)})`, [{
			path: "",
			message: "cannot be read"
		}], { cause });
	}
	return parseProgressConfigText(text, file);
}
/** Parses agent.json text; `file` names the source in error messages. */
function parseProgressConfigText(text, file) {
	let value;
	try {
		value = JSON.parse(text);
	} catch (cause) {
		throw new EstimatorError("ESTIMATOR_INVALID_CONFIG", `${file}: not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`, [{
			path: "",
			message: "not valid JSON"
		}], { cause });
	}
	const result = agentFileSchema.safeParse(value);
	if (!result.success) {
		const issues = toValidationIssues(result.error).map((i) => i.path === "" && (typeof value !== "object" || value === null || Array.isArray(value)) ? {
			path: "",
			message: "expected a JSON object"
		} : i);
		throw new EstimatorError("ESTIMATOR_INVALID_CONFIG", `${file}: ${describeIssues(issues)}`, issues);
	}
	return result.data.progress ?? {
		aiDriven: true,
		fallbackSteps: []
	};
}
//#endregion
//#region src/workflow.ts
const positive = z.number({ error: "expected a positive number" }).refine((n) => n > 0, { error: "expected a positive number" });
const callName = z.string({ error: "expected a worker name such as workers/x" }).min(1, { error: "expected a worker name such as workers/x" });
const blockSchema = z.union([z.strictObject({
	call: callName,
	weight: positive
}), z.strictObject({ parallel: z.strictObject({
	weight: positive,
	steps: z.array(z.strictObject({ call: callName }), { error: "expected a list of { call }" }).min(1, { error: "expected at least one member" })
}) })], { error: "expected either { call, weight } or { parallel: { weight, steps } }" });
const HEADING = /^##\s+(\d+)\.\s+(.+?)\s*#*\s*$/;
const FENCE = /^(`{3,}|~{3,})\s*(\S*)\s*$/;
function fail(line, message) {
	throw new EstimatorError("ESTIMATOR_INVALID_WORKFLOW", `WORKFLOW.md line ${line}: ${message}`, [{
		path: `line ${line}`,
		message
	}]);
}
/** Picks the best issue list for a block: the variant the author evidently meant. */
function blockIssues(value) {
	const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
	const meantParallel = isObject && "parallel" in value;
	const meantCall = isObject && ("call" in value || "weight" in value);
	const schema = meantParallel ? blockSchema.options[1] : meantCall ? blockSchema.options[0] : void 0;
	if (schema === void 0) return "expected either { call, weight } or { parallel: { weight, steps } }";
	const result = schema.safeParse(value);
	return result.success ? "" : describeIssues(toValidationIssues(result.error));
}
/**
* Parses a manager's WORKFLOW.md — `## N. Title` headings each followed by a fenced yaml
* block (`call: workers/x` + `weight: 60`, or `parallel: { weight, steps: [{ call }] }`) —
* into steps laid out over 10–90 by weight.
*
* @throws {EstimatorError} `ESTIMATOR_INVALID_WORKFLOW` naming the line: a heading
* without a yaml block, invalid yaml, or a block of the wrong shape.
* @example
* ```ts
* const steps = parseWorkflow(await readFile('WORKFLOW.md', 'utf8'));
* const generate = steps.find((s) => s.title === 'Generate Content'); // start 26, end 74
* ```
*/
function parseWorkflow(markdown) {
	const lines = markdown.split(/\r?\n/);
	const found = [];
	let i = 0;
	while (i < lines.length) {
		const heading = HEADING.exec(lines[i] ?? "");
		if (heading === null) {
			i++;
			continue;
		}
		const headingLine = i + 1;
		const number = Number(heading[1]);
		const title = heading[2] ?? "";
		let j = i + 1;
		let fence = null;
		while (j < lines.length) {
			const text = lines[j] ?? "";
			if (/^#{1,2}\s/.test(text)) break;
			fence = FENCE.exec(text);
			if (fence !== null) break;
			j++;
		}
		if (fence === null) fail(headingLine, `step ${number} ("${title}") has no fenced yaml block`);
		const lang = fence[2] ?? "";
		if (lang !== "" && lang !== "yaml" && lang !== "yml") fail(j + 1, `step ${number} ("${title}"): expected a yaml block, found "${lang}"`);
		const marker = fence[1] ?? "```";
		const bodyStart = j + 1;
		let k = bodyStart;
		while (k < lines.length && !(lines[k] ?? "").trim().startsWith(marker.slice(0, 3))) k++;
		if (k >= lines.length) fail(j + 1, `step ${number} ("${title}"): the yaml block is never closed`);
		const doc = parseDocument(lines.slice(bodyStart, k).join("\n"), {
			prettyErrors: false,
			uniqueKeys: true
		});
		const yamlError = doc.errors[0];
		if (yamlError !== void 0) fail(bodyStart + (yamlError.linePos?.[0]?.line ?? 1), `step ${number} ("${title}"): invalid yaml: ${yamlError.message.split("\n")[0] ?? ""}`);
		const value = doc.toJS();
		const parsed = blockSchema.safeParse(value);
		if (!parsed.success) fail(bodyStart + 1, `step ${number} ("${title}"): ${blockIssues(value)}`);
		found.push({
			number,
			title,
			line: headingLine,
			block: parsed.data
		});
		i = k + 1;
	}
	if (found.length === 0) fail(1, "no steps found; expected \"## N. Title\" headings each followed by a yaml block");
	for (const [index, step] of found.entries()) if (step.number !== index + 1) fail(step.line, `expected step number ${index + 1}, found ${step.number}`);
	const weights = found.map((s) => ({
		name: s.title,
		weight: "parallel" in s.block ? s.block.parallel.weight : s.block.weight
	}));
	const ranges = computeStepRanges(weights);
	return found.map((step, index) => {
		const range = ranges[index];
		const start = range?.start ?? 10;
		const end = range?.end ?? 90;
		const calls = "parallel" in step.block ? step.block.parallel.steps.map((m) => m.call) : [step.block.call];
		return {
			number: step.number,
			title: step.title,
			weight: weights[index]?.weight ?? 0,
			start,
			end,
			parallel: "parallel" in step.block,
			calls: calls.map((call) => ({
				call,
				start,
				end
			})),
			line: step.line
		};
	});
}
/**
* Overall percent of a parallel group (or a single call) from its members' own 0–100:
* the mean of the members, mapped into the group's slice.
*/
function workflowStepPercent(step, memberPercents) {
	const values = step.calls.map((_, i) => Math.min(100, Math.max(0, memberPercents[i] ?? 0)));
	const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
	return Math.round(step.start + mean / 100 * (step.end - step.start));
}
//#endregion
//#region src/json-braces.ts
/**
* Index of the `}` that closes the `{` at `open`, skipping braces inside JSON strings;
* -1 when the text ends first. Shared by reading and by stripping `_progress` objects.
*/
function matchingBrace(text, open) {
	let depth = 0;
	let inString = false;
	for (let i = open; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === "\\") i++;
			else if (c === "\"") inString = false;
		} else if (c === "\"") inString = true;
		else if (c === "{") depth++;
		else if (c === "}") {
			depth--;
			if (depth === 0) return i;
		}
	}
	return -1;
}
//#endregion
//#region src/model-progress.ts
const MAX_MESSAGE_LENGTH = 200;
const FENCED$1 = /```(?:json|JSON)?\s*\n([\s\S]*?)```/g;
/**
* The text to add to a system prompt so a model reports `_progress` at milestones.
*
* @example
* ```ts
* const system = `${basePrompt}\n\n${PROGRESS_PROMPT_INSTRUCTIONS}`;
* ```
*/
const PROGRESS_PROMPT_INSTRUCTIONS = [
	"## Progress reporting",
	"",
	"When you reach a meaningful milestone, include a `_progress` field in your JSON reply:",
	"",
	"```json",
	"{ \"_progress\": { \"percent\": 50, \"message\": \"Halfway through the analysis\" } }",
	"```",
	"",
	"- `percent` is a number from 0 to 100: your honest estimate of how much of the whole task is done.",
	"- `message` is optional: a short phrase saying what you are doing now.",
	"- Report at milestones (for example 25%: analysis done, 50%: first draft ready, 75%: refinements done), not in every reply.",
	"- Never lower a percent you reported earlier; do not report 100 until the task is complete."
].join("\n");
function readProgressField(container) {
	if (typeof container !== "object" || container === null || Array.isArray(container)) return { kind: "absent" };
	if (!Object.prototype.hasOwnProperty.call(container, "_progress")) return { kind: "absent" };
	const raw = container._progress;
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {
		kind: "rejected",
		reason: `_progress: expected an object, got ${Array.isArray(raw) ? "an array" : raw === null ? "null" : typeof raw}`
	};
	const { percent, message } = raw;
	if (typeof percent !== "number") return {
		kind: "rejected",
		reason: `_progress.percent: expected a number, got ${typeof percent}`
	};
	if (!Number.isFinite(percent)) return {
		kind: "rejected",
		reason: `_progress.percent: expected a finite number, got ${String(percent)}`
	};
	if (message !== void 0 && typeof message !== "string") return {
		kind: "rejected",
		reason: `_progress.message: expected a string, got ${Array.isArray(message) ? "an array" : message === null ? "null" : typeof message}`
	};
	const value = { percent: Math.min(100, Math.max(0, percent)) };
	const trimmed = message?.trim();
	if (trimmed !== void 0 && trimmed !== "") value.message = trimmed.slice(0, MAX_MESSAGE_LENGTH);
	return {
		kind: "ok",
		value
	};
}
function parseJson(text) {
	try {
		return JSON.parse(text);
	} catch {
		return;
	}
}
/** JSON candidates in model text: the whole text, fenced blocks, then balanced `{…}` spans. */
function* jsonCandidates(text) {
	yield parseJson(text.trim());
	for (const match of text.matchAll(FENCED$1)) yield parseJson(match[1] ?? "");
	let from = 0;
	for (;;) {
		const key = text.indexOf("\"_progress\"", from);
		if (key < 0) return;
		from = key + 1;
		for (let open = text.lastIndexOf("{", key); open >= 0; open = text.lastIndexOf("{", open - 1)) {
			const close = matchingBrace(text, open);
			if (close > key) {
				yield parseJson(text.slice(open, close + 1));
				break;
			}
		}
	}
}
/**
* Reads a model's `_progress: { percent, message? }` from a structured reply object or
* from JSON text (whole, in a fenced block, or embedded in prose).
*
* Untrusted by design: strings such as `"50"`, NaN, Infinity, arrays and other garbage
* give `undefined` (the reason goes to `onReject`); it never throws. A percent outside
* 0–100 is clamped.
*
* @example
* ```ts
* extractModelProgress('Done.\n```json\n{"_progress":{"percent":40,"message":"Drafting"}}\n```');
* // { percent: 40, message: 'Drafting' }
* ```
*/
function extractModelProgress(output, options = {}) {
	const reject = (reason) => {
		try {
			options.onReject?.(reason);
		} catch {}
	};
	try {
		if (typeof output === "string") {
			let firstRejection;
			for (const candidate of jsonCandidates(output)) {
				const found = readProgressField(candidate);
				if (found.kind === "ok") return found.value;
				if (found.kind === "rejected") firstRejection ??= found.reason;
			}
			if (firstRejection !== void 0) reject(firstRejection);
			return;
		}
		const found = readProgressField(output);
		if (found.kind === "ok") return found.value;
		if (found.kind === "rejected") reject(found.reason);
		return;
	} catch (cause) {
		reject(`_progress could not be read: ${cause instanceof Error ? cause.message : String(cause)}`);
		return;
	}
}
//#endregion
//#region src/model-progress-text.ts
const FENCED = /```[ \t]*(?:json|JSON)?[ \t]*\n([\s\S]*?)```/g;
function parseObject(text) {
	try {
		const value = JSON.parse(text);
		return typeof value === "object" && value !== null && !Array.isArray(value) ? value : void 0;
	} catch {
		return;
	}
}
/** What replaces a JSON object that carried `_progress`: nothing, or the object without it. */
function withoutProgress(object) {
	const rest = Object.fromEntries(Object.entries(object).filter(([key]) => key !== "_progress"));
	return Object.keys(rest).length === 0 ? "" : JSON.stringify(rest, null, 2);
}
/** End index (exclusive) of the balanced `{…}` starting at `start`; -1 if unbalanced. */
function balancedEnd(text, start) {
	const close = matchingBrace(text, start);
	return close === -1 ? -1 : close + 1;
}
/**
* The text a user should see: the model's reply without the `_progress` JSON it added for
* the progress bar (a fenced block, an object in prose, or a key of a JSON reply).
* Other JSON is left exactly as it was.
*
* @example
* ```ts
* stripModelProgress('Done with the scan.\n```json\n{"_progress":{"percent":40}}\n```'); // 'Done with the scan.'
* ```
*/
function stripModelProgress(text) {
	if (!text.includes("_progress")) return text;
	const whole = parseObject(text.trim());
	if (whole !== void 0 && "_progress" in whole) return withoutProgress(whole);
	let out = text.replace(FENCED, (block, body) => {
		const object = parseObject(body.trim());
		if (object === void 0 || !("_progress" in object)) return block;
		const rest = withoutProgress(object);
		return rest === "" ? "" : `\`\`\`json\n${rest}\n\`\`\``;
	});
	for (let from = out.indexOf("{"); from !== -1 && out.includes("_progress", from); from = out.indexOf("{", from + 1)) {
		const end = balancedEnd(out, from);
		if (end === -1) continue;
		const object = parseObject(out.slice(from, end));
		if (object === void 0 || !("_progress" in object)) continue;
		const rest = withoutProgress(object);
		const after = rest === "" && out[from - 1] === " " && out[end] === " " ? end + 1 : end;
		out = out.slice(0, from) + rest + out.slice(after);
		from += rest.length - 1;
	}
	return out.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}
/**
* Streams model text while holding back anything that may turn out to be a `_progress`
* object, so `text.delta` events never show it: text before a `{` or a code fence goes out
* at once; a held span is released when it closes without `_progress` in it, and the rest
* is cleaned with {@link stripModelProgress} at the end.
*/
var ProgressTextFilter = class {
	#held = "";
	/** Adds a delta; returns the part that is safe to show now. */
	push(delta) {
		this.#held += delta;
		return this.#release();
	}
	/** The stream ended: returns whatever is left, cleaned. */
	flush() {
		const rest = this.#held;
		this.#held = "";
		if (!rest.includes("_progress")) return rest;
		const leading = /^\s*/.exec(rest)?.[0] ?? "";
		const cleaned = stripModelProgress(rest);
		return cleaned === "" ? "" : leading + cleaned;
	}
	#release() {
		let out = "";
		for (;;) {
			const brace = this.#held.indexOf("{");
			const fence = this.#held.indexOf("```");
			const start = brace === -1 ? fence : fence === -1 ? brace : Math.min(brace, fence);
			if (start === -1) {
				const tail = /`{1,2}$/.exec(this.#held)?.[0].length ?? 0;
				out += this.#held.slice(0, this.#held.length - tail);
				this.#held = this.#held.slice(this.#held.length - tail);
				return out;
			}
			out += this.#held.slice(0, start);
			this.#held = this.#held.slice(start);
			const end = this.#held.startsWith("```") ? this.#fenceEnd() : balancedEnd(this.#held, 0);
			if (end === -1) return out;
			const span = this.#held.slice(0, end);
			if (span.includes("_progress")) return out;
			out += span;
			this.#held = this.#held.slice(end);
		}
	}
	#fenceEnd() {
		const close = this.#held.indexOf("```", 3);
		return close === -1 ? -1 : close + 3;
	}
};
//#endregion
//#region src/progress-tracker-state.ts
const count = z.int().min(0);
const ms = z.number().min(0).refine(Number.isFinite, { error: "expected a finite number" });
/** Validates a {@link ProgressTrackerState} read back from a checkpoint. */
const progressTrackerStateSchema = z.strictObject({
	version: z.literal(1),
	percent: z.int().min(0).max(100),
	message: z.string().exactOptional(),
	completed: z.boolean(),
	roundtrips: count,
	finishedRoundtrips: count,
	phase: z.enum([
		"idle",
		"llm",
		"tools"
	]),
	toolCalls: count,
	stepToolCalls: count,
	currentStep: z.string().exactOptional(),
	finishedSteps: z.array(z.string()),
	model: z.strictObject({
		percent: z.number().min(0).max(100),
		atRoundtrip: count
	}).exactOptional(),
	llmMs: ms.exactOptional(),
	toolsMs: ms.exactOptional(),
	observedRoundtrips: count,
	elapsedMs: ms
});
//#endregion
//#region src/roundtrip-posterior.ts
/**
* Share of the prior kept uninformed when there is history. Evaluated leave-one-group-out
* on recorded runs, history of other kinds of task is a weak guide; this keeps it from
* overruling the cap-based prior.
*/
const UNINFORMED_SHARE = .5;
/** Share of the uninformed prior beyond the cap, for loops that do not enforce it strictly. */
const BEYOND_CAP_SHARE = .05;
/** How fast that share thins out past the cap (a Pareto tail). */
const BEYOND_CAP_ALPHA = 1.5;
/** Kernel width, in natural-log roundtrips, that smooths history into a prior. */
const HISTORY_BANDWIDTH = .45;
const GRID_LIMIT = 2e4;
/** The most recent runs kept from history; older ones add cost, not information. */
const HISTORY_LIMIT = 500;
/**
* A belief over how many roundtrips a run will take in total, conditioned on how many it
* has already started. Without history the prior is log-uniform up to the cap (a run is
* as likely to need 2–4 roundtrips as 10–20); history replaces most of it with a
* smoothed histogram of earlier runs' counts.
*/
var RoundtripPosterior = class {
	size;
	/** mass[n] = prior probability that the run takes exactly n roundtrips (index 0 unused). */
	mass;
	/** Suffix sums of mass and of mass / n, so conditioning on "at least r" is O(1). */
	tail;
	tailOverN;
	constructor(cap, history) {
		const counts = (history?.runs.slice(-HISTORY_LIMIT) ?? []).map((r) => r.roundtrips).filter((n) => Number.isFinite(n) && n >= 1);
		const cap0 = cap !== void 0 && Number.isFinite(cap) && cap >= 1 ? Math.floor(cap) : void 0;
		const longest = Math.max(cap0 ?? 0, ...counts, 8);
		this.size = Math.min(GRID_LIMIT, longest * 16);
		const mass = new Float64Array(this.size + 1);
		const uninformed = new Float64Array(this.size + 1);
		const scale = cap0 ?? Math.max(30, ...counts);
		for (let n = 1; n <= this.size; n++) uninformed[n] = n <= scale ? 1 / n : BEYOND_CAP_SHARE / Math.log(scale + 1) * (1 / n) * (scale / n) ** BEYOND_CAP_ALPHA;
		normalise(uninformed);
		if (counts.length > 0) {
			const learned = new Float64Array(this.size + 1);
			const multiplicity = /* @__PURE__ */ new Map();
			for (const c of counts) multiplicity.set(c, (multiplicity.get(c) ?? 0) + 1);
			const kernels = [...multiplicity].map(([c, k]) => ({
				log: Math.log(c),
				k
			}));
			for (let n = 1; n <= this.size; n++) {
				let density = 0;
				const logN = Math.log(n);
				for (const { log, k } of kernels) {
					const z = (logN - log) / HISTORY_BANDWIDTH;
					if (z > -8 && z < 8) density += k * Math.exp(-.5 * z * z);
				}
				learned[n] = density / n;
			}
			if (cap0 !== void 0 && cap0 < this.size) {
				let beyond = 0;
				for (let n = cap0 + 1; n <= this.size; n++) beyond += learned[n] ?? 0;
				for (let n = cap0 + 1; n <= this.size; n++) learned[n] = (learned[n] ?? 0) * BEYOND_CAP_SHARE;
				learned[cap0] = (learned[cap0] ?? 0) + beyond * (1 - BEYOND_CAP_SHARE);
			}
			normalise(learned);
			for (let n = 1; n <= this.size; n++) mass[n] = (1 - UNINFORMED_SHARE) * (learned[n] ?? 0) + UNINFORMED_SHARE * (uninformed[n] ?? 0);
		} else mass.set(uninformed);
		normalise(mass);
		this.mass = mass;
		this.tail = new Float64Array(this.size + 2);
		this.tailOverN = new Float64Array(this.size + 2);
		for (let n = this.size; n >= 1; n--) {
			this.tail[n] = (this.tail[n + 1] ?? 0) + (mass[n] ?? 0);
			this.tailOverN[n] = (this.tailOverN[n + 1] ?? 0) + (mass[n] ?? 0) / n;
		}
	}
	/**
	* Expected fraction done, E[position / N | N >= atLeast], where `position` (<= atLeast)
	* counts finished roundtrips plus the share of the current one.
	*/
	fractionDone(position, atLeast) {
		if (position <= 0) return 0;
		const r = Math.max(1, Math.ceil(atLeast));
		if (r > this.size) return Math.min(1, position / r) * .5;
		const tail = this.tail[r] ?? 0;
		if (tail <= 0) return Math.min(1, position / r) * .5;
		return Math.min(1, position * (this.tailOverN[r] ?? 0) / tail);
	}
	/**
	* The posterior quantile q of the total N given N >= atLeast (interpolated between
	* integers so small changes in belief move it smoothly).
	*/
	quantile(q, atLeast) {
		const r = Math.max(1, Math.ceil(atLeast));
		if (r > this.size) return 2 * r;
		const tail = this.tail[r] ?? 0;
		if (tail <= 0) return 2 * r;
		const goal = q * tail;
		let acc = 0;
		for (let n = r; n <= this.size; n++) {
			const m = this.mass[n] ?? 0;
			if (acc + m >= goal) return n - 1 + (m > 0 ? (goal - acc) / m : 1);
			acc += m;
		}
		return this.size;
	}
	/** Roundtrips still to come after `position`: the posterior median of N - position. */
	remaining(position, atLeast) {
		return Math.max(.5, this.quantile(.5, atLeast) - position);
	}
};
function normalise(values) {
	let sum = 0;
	for (const v of values) sum += v;
	if (sum > 0) for (let i = 0; i < values.length; i++) values[i] = (values[i] ?? 0) / sum;
}
//#endregion
//#region src/progress-tracker.ts
/** Past this many roundtrips since the last model report, half the remaining gap has been closed. */
const MODEL_ADVANCE_HALF_LIFE = 10;
/** Worker fallback: +10 local per tool call, capped at 80. */
const PER_TOOL_CALL = 10;
const TOOL_CALL_CAP = 80;
/** Furthest into a roundtrip the clock alone may move the bar. */
const MAX_ROUND_SHARE = .9;
function mean(values) {
	let sum = 0;
	let n = 0;
	for (const v of values) {
		sum += v;
		n++;
	}
	return n === 0 ? 0 : sum / n;
}
function median(values) {
	if (values.length === 0) return void 0;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
/**
* The one place a run's percent and ETA are decided.
*
* Combines, in order of trust, validated model `_progress` (when `aiDriven`), the current
* weighted step's slice, and a roundtrip estimate that conditions a prior on the total
* number of roundtrips (log-uniform up to the cap, or learned from `history`) on how many
* have started. The shown percent is an integer that never decreases, stays at most 99
* until {@link complete}, and is exactly 100 after it.
*
* @example
* ```ts
* const tracker = new ProgressTracker({ maxRoundtrips: 30, emit: (body) => hub.emit(body) });
* tracker.roundtripStarted();
* tracker.toolsStarted();
* tracker.toolCallFinished('read_file', true);
* tracker.roundtripFinished();
* tracker.complete(); // emits { type: 'progress', percent: 100 }
* ```
*/
var ProgressTracker = class ProgressTracker {
	cap;
	emitFn;
	clock;
	aiDriven;
	ranges;
	posterior;
	historyRoundMs;
	slots = /* @__PURE__ */ new Map();
	shown = 0;
	message;
	completed = false;
	roundtrips = 0;
	finishedRoundtrips = 0;
	phase = "idle";
	toolCalls = 0;
	stepToolCalls = 0;
	currentStep;
	finishedSteps = /* @__PURE__ */ new Set();
	model;
	llmMs;
	toolsMs;
	observedRoundtrips = 0;
	startedAt;
	roundStartedAt = 0;
	toolsStartedAt = 0;
	eta;
	lastEmitted;
	constructor(options) {
		const cap = options.maxRoundtrips;
		if (typeof cap !== "number" || Number.isNaN(cap) || cap < 1) throw new RangeError(`ProgressTracker: maxRoundtrips must be a number >= 1 (or Infinity), got ${String(cap)}`);
		this.cap = cap;
		this.emitFn = options.emit;
		this.clock = options.now ?? Date.now;
		this.aiDriven = options.aiDriven ?? true;
		this.ranges = computeStepRanges(options.steps ?? []);
		const runs = options.history?.runs ?? [];
		const finiteCap = Number.isFinite(cap) ? cap : void 0;
		this.posterior = finiteCap !== void 0 || runs.length > 0 ? new RoundtripPosterior(finiteCap, options.history) : void 0;
		this.historyRoundMs = median(runs.filter((r) => r.roundtrips > 0).map((r) => r.durationMs / r.roundtrips));
		let elapsed = 0;
		if (options.state !== void 0) elapsed = this.restore(options.state);
		this.startedAt = this.clock() - elapsed;
		this.roundStartedAt = this.clock();
		this.toolsStartedAt = this.roundStartedAt;
		this.lastEmitted = {
			percent: this.shown,
			message: this.message
		};
	}
	/** The percent shown now: an integer in 0–100 that never decreases. */
	get percent() {
		return this.shown;
	}
	/** Milliseconds left, when there is evidence for it (two observed roundtrips and a cap or history); otherwise undefined. */
	get etaMs() {
		return this.eta;
	}
	/** A model call begins (phase `llm`); an unfinished previous roundtrip counts as finished. */
	roundtripStarted() {
		if (this.completed) return;
		const t = this.clock();
		if (this.phase !== "idle") this.closeRound(t);
		this.roundtrips++;
		this.phase = "llm";
		this.roundStartedAt = t;
		this.toolsStartedAt = t;
		this.update();
	}
	/** The round's tool calls begin (phase `tools`). */
	toolsStarted() {
		if (this.completed) return;
		if (this.phase === "idle") this.roundtripStarted();
		if (this.phase === "tools") return;
		this.phase = "tools";
		this.toolsStartedAt = this.clock();
		this.update();
	}
	/** One tool call ended; counts toward the worker fallback (+10 local each, up to 80). */
	toolCallFinished(_name, _ok) {
		if (this.completed) return;
		this.toolCalls++;
		this.stepToolCalls++;
		this.update();
	}
	/** The roundtrip (model call and its tools) ended. */
	roundtripFinished() {
		if (this.completed || this.phase === "idle") return;
		this.closeRound(this.clock());
		this.update();
	}
	/** A validated model `_progress` (see `extractModelProgress`); ignored unless `aiDriven`. */
	reportModelProgress(progress) {
		if (this.completed || !Number.isFinite(progress.percent)) return;
		if (progress.message !== void 0) this.message = progress.message;
		if (this.aiDriven) {
			const percent = Math.min(100, Math.max(0, progress.percent));
			this.model = {
				percent: Math.max(percent, this.model?.percent ?? 0),
				atRoundtrip: this.roundtrips
			};
		}
		this.update();
	}
	/** A weighted step begins; its name becomes the message. Unknown names only set the message. */
	stepStarted(name) {
		if (this.completed) return;
		if (this.currentStep !== void 0 && this.currentStep !== name) this.finishedSteps.add(this.currentStep);
		this.currentStep = name;
		this.stepToolCalls = 0;
		this.message = name;
		this.update();
	}
	/** A weighted step ended: the bar reaches at least the end of its slice. */
	stepFinished(name) {
		if (this.completed) return;
		this.finishedSteps.add(name);
		if (this.currentStep === name) this.currentStep = void 0;
		this.update();
	}
	/** Sets the message shown with the percent. */
	setMessage(message) {
		if (this.completed) return;
		this.message = message;
		this.update();
	}
	/** Re-reads the clock: lets the bar creep within a long roundtrip. Call it from a timer. */
	tick() {
		if (!this.completed) this.update();
	}
	/** The run finished successfully: the percent becomes exactly 100. */
	complete() {
		if (this.completed) return;
		if (this.phase !== "idle") this.closeRound(this.clock());
		this.completed = true;
		this.update();
	}
	/**
	* A tracker whose 0–100 lands in a slice of this one: a `{ start, end }` range or the
	* slice of a weighted step (which starts it). Several children of one slice (parallel
	* members) count as their mean. Nests to any depth.
	*
	* @example
	* ```ts
	* const worker = manager.child('Generate Content');
	* worker.reportModelProgress({ percent: 50 }); // the manager shows the middle of the step's slice
	* ```
	*/
	child(rangeOrStep, options = {}) {
		let key;
		let range;
		if (typeof rangeOrStep === "string") {
			const step = this.ranges.find((s) => s.name === rangeOrStep);
			if (step === void 0) throw new RangeError(`ProgressTracker.child: no step named "${rangeOrStep}"`);
			key = `step:${rangeOrStep}`;
			range = {
				start: step.start,
				end: step.end
			};
			if (this.currentStep !== rangeOrStep && !this.finishedSteps.has(rangeOrStep)) this.stepStarted(rangeOrStep);
		} else {
			const { start, end } = rangeOrStep;
			if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end > 100 || start > end) throw new RangeError(`ProgressTracker.child: range must satisfy 0 <= start <= end <= 100, got ${String(start)}–${String(end)}`);
			key = `range:${start}-${end}`;
			range = {
				start,
				end
			};
		}
		let slot = this.slots.get(key);
		if (slot === void 0) {
			slot = {
				range,
				members: /* @__PURE__ */ new Map()
			};
			this.slots.set(key, slot);
		}
		const members = slot.members;
		const child = new ProgressTracker({
			maxRoundtrips: options.maxRoundtrips ?? Number.POSITIVE_INFINITY,
			now: this.clock,
			emit: (body) => {
				members.set(child, body.percent);
				if (body.message !== void 0 && !this.completed) this.message = body.message;
				this.update();
			},
			...options.aiDriven === void 0 ? {} : { aiDriven: options.aiDriven },
			...options.steps === void 0 ? {} : { steps: options.steps },
			...options.history === void 0 ? {} : { history: options.history }
		});
		members.set(child, 0);
		return child;
	}
	/** Plain JSON state for checkpoints; pass it back as `state` to continue. */
	toJSON() {
		const state = {
			version: 1,
			percent: this.shown,
			completed: this.completed,
			roundtrips: this.roundtrips,
			finishedRoundtrips: this.finishedRoundtrips,
			phase: this.phase,
			toolCalls: this.toolCalls,
			stepToolCalls: this.stepToolCalls,
			finishedSteps: [...this.finishedSteps],
			observedRoundtrips: this.observedRoundtrips,
			elapsedMs: Math.max(0, this.clock() - this.startedAt)
		};
		if (this.message !== void 0) state.message = this.message;
		if (this.currentStep !== void 0) state.currentStep = this.currentStep;
		if (this.model !== void 0) state.model = { ...this.model };
		if (this.llmMs !== void 0) state.llmMs = this.llmMs;
		if (this.toolsMs !== void 0) state.toolsMs = this.toolsMs;
		return state;
	}
	restore(input) {
		const result = progressTrackerStateSchema.safeParse(input);
		if (!result.success) {
			const issues = toValidationIssues(result.error);
			throw new EstimatorError("ESTIMATOR_INVALID_STATE", `Invalid progress tracker state: ${describeIssues(issues)}`, issues);
		}
		const s = result.data;
		this.shown = s.completed ? 100 : Math.min(99, s.percent);
		this.message = s.message;
		this.completed = s.completed;
		this.roundtrips = s.roundtrips;
		this.finishedRoundtrips = Math.min(s.finishedRoundtrips, s.roundtrips);
		this.phase = s.phase;
		this.toolCalls = s.toolCalls;
		this.stepToolCalls = s.stepToolCalls;
		this.currentStep = s.currentStep;
		for (const name of s.finishedSteps) this.finishedSteps.add(name);
		this.model = s.model;
		this.llmMs = s.llmMs;
		this.toolsMs = s.toolsMs;
		this.observedRoundtrips = s.observedRoundtrips;
		return s.elapsedMs;
	}
	closeRound(t) {
		const llm = Math.max(0, (this.phase === "tools" ? this.toolsStartedAt : t) - this.roundStartedAt);
		const tools = this.phase === "tools" ? Math.max(0, t - this.toolsStartedAt) : 0;
		this.observedRoundtrips++;
		const alpha = Math.max(.2, 1 / this.observedRoundtrips);
		this.llmMs = this.llmMs === void 0 ? llm : this.llmMs + alpha * (llm - this.llmMs);
		this.toolsMs = this.toolsMs === void 0 ? tools : this.toolsMs + alpha * (tools - this.toolsMs);
		this.finishedRoundtrips = this.roundtrips;
		this.phase = "idle";
	}
	roundMs() {
		if (this.llmMs !== void 0 && this.toolsMs !== void 0) return this.llmMs + this.toolsMs;
		return this.historyRoundMs;
	}
	/** Finished roundtrips plus the share of the current one, and how many have started. */
	position(t) {
		if (this.phase === "idle") return {
			position: this.finishedRoundtrips,
			atLeast: this.finishedRoundtrips + 1
		};
		const expected = this.roundMs();
		let share = this.phase === "tools" ? .5 : 0;
		if (expected !== void 0 && expected > 0) share = Math.min(MAX_ROUND_SHARE, (t - this.roundStartedAt) / expected);
		return {
			position: this.roundtrips - 1 + Math.max(0, share),
			atLeast: this.roundtrips
		};
	}
	/** The best current estimate on this tracker's own 0–100 scale, before the monotone floor. */
	target(t) {
		const { position, atLeast } = this.position(t);
		const estimate = this.posterior === void 0 ? Math.min(TOOL_CALL_CAP, PER_TOOL_CALL * this.toolCalls) : 100 * this.posterior.fractionDone(position, atLeast);
		let value = estimate;
		if (this.ranges.length > 0) value = this.stepValue(estimate);
		for (const [key, slot] of this.slots) {
			if (key.startsWith("step:")) continue;
			value = Math.max(value, slot.range.start + mean(slot.members.values()) / 100 * (slot.range.end - slot.range.start));
		}
		if (this.aiDriven && this.model !== void 0) {
			const since = Math.max(0, this.roundtrips - this.model.atRoundtrip);
			const advanced = this.model.percent + (99 - this.model.percent) * since / (since + MODEL_ADVANCE_HALF_LIFE) / 2;
			value = Math.max(advanced, this.rangedFloor());
		}
		return value;
	}
	/** Where weighted steps put the bar: inside the current step's slice, by its children or tool calls. */
	stepValue(estimate) {
		const current = this.ranges.find((s) => s.name === this.currentStep);
		if (current !== void 0) {
			const slot = this.slots.get(`step:${current.name}`);
			const local = Math.max(slot === void 0 ? 0 : mean(slot.members.values()), Math.min(TOOL_CALL_CAP, PER_TOOL_CALL * this.stepToolCalls));
			return Math.max(this.finishedFloor(), current.start + Math.min(100, local) / 100 * (current.end - current.start));
		}
		if (this.finishedSteps.size === 0) {
			const first = this.ranges[0];
			const last = this.ranges[this.ranges.length - 1];
			if (first === void 0 || last === void 0) return estimate;
			return first.start + estimate / 100 * (last.end - first.start);
		}
		const floor = this.finishedFloor();
		const last = this.ranges[this.ranges.length - 1];
		if (last !== void 0 && this.finishedSteps.has(last.name)) return floor + (99 - floor) * (estimate / 100) * .5;
		return floor;
	}
	finishedFloor() {
		let floor = 0;
		for (const s of this.ranges) if (this.finishedSteps.has(s.name)) floor = Math.max(floor, s.end);
		return floor;
	}
	/** Explicit measurements (children, finished steps) the model's estimate may not undercut. */
	rangedFloor() {
		let floor = this.finishedFloor();
		for (const slot of this.slots.values()) floor = Math.max(floor, slot.range.start + mean(slot.members.values()) / 100 * (slot.range.end - slot.range.start));
		return floor;
	}
	computeEta(t) {
		if (this.completed || this.posterior === void 0 || this.observedRoundtrips < 2) return void 0;
		const roundMs = this.roundMs();
		if (roundMs === void 0 || roundMs <= 0) return void 0;
		const { position, atLeast } = this.position(t);
		return Math.round(this.posterior.remaining(position, atLeast) * roundMs);
	}
	update() {
		const t = this.clock();
		if (this.completed) {
			this.shown = 100;
			this.eta = void 0;
		} else {
			const target = Math.min(99, Math.max(0, Math.round(this.target(t))));
			if (target > this.shown) this.shown = target;
			this.eta = this.computeEta(t);
		}
		if (this.lastEmitted.percent === this.shown && this.lastEmitted.message === this.message) return;
		this.lastEmitted = {
			percent: this.shown,
			message: this.message
		};
		if (this.emitFn === void 0) return;
		const body = {
			type: "progress",
			percent: this.shown
		};
		if (this.message !== void 0) body.message = this.message;
		if (this.eta !== void 0) body.etaMs = this.eta;
		try {
			this.emitFn(body);
		} catch {}
	}
};
//#endregion
//#region src/task-history.ts
/** Validates a {@link TaskHistory} read from storage. */
const taskHistorySchema = z.strictObject({ runs: z.array(z.strictObject({
	roundtrips: z.int().min(1),
	durationMs: z.number().nonnegative().refine(Number.isFinite, { error: "expected a finite number" })
})) });
//#endregion
export { EstimatorError, PROGRESS_PROMPT_INSTRUCTIONS, ProgressTextFilter, ProgressTracker, computeStepRanges, estimateProgress, extractModelProgress, loadProgressConfig, mapProgressToRange, parseWorkflow, progressConfigSchema, progressTrackerStateSchema, stripModelProgress, taskHistorySchema, workflowStepPercent };

//# sourceMappingURL=index.js.map