/**
 * GitHub Actions expressions, as far as a workflow here uses them: `${{ ... }}` in strings, and `if:` conditions.
 * Literals ('text', numbers, true, false, null), contexts with dotted properties (`github.event.pull_request.number`),
 * `!`, `==`, `!=` (strings compared without regard to case, as GitHub does), `&&`, `||`, parentheses, and the functions
 * the context gives (`success()`, `always()`, `hashFiles(...)`). Anything else throws, naming it: a simulation that
 * guessed would pass a workflow GitHub refuses.
 */
"use strict";

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|(&&|\|\||==|!=|!|\(|\)|,)|([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d+\])*))/y;

function tokens(text) {
  const out = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) {
      if (/^\s*$/.test(text.slice(at))) break;
      throw new Error(`expression '${text}': cannot read '${text.slice(at)}'`);
    }
    if (m[1] !== undefined) out.push({ value: Number(m[1]) });
    else if (m[2] !== undefined) out.push({ value: m[2].replace(/''/g, "'") });
    else if (m[3] !== undefined) out.push({ op: m[3] });
    else out.push({ name: m[4] });
  }
  return out;
}

/** GitHub's loose equality: strings without regard to case, numbers as numbers, null as ''. */
function equal(a, b) {
  const norm = (v) => (v === null || v === undefined ? "" : typeof v === "string" ? v.toLowerCase() : v);
  const x = norm(a);
  const y = norm(b);
  if (typeof x === typeof y) return x === y;
  return String(x) === String(y);
}

const truthy = (v) => !(v === false || v === 0 || v === "" || v === null || v === undefined);

/** Evaluates `text` against `context` (an object of contexts and functions). */
function evaluate(text, context) {
  const ts = tokens(text);
  let i = 0;
  const peek = (op) => ts[i] && ts[i].op === op;
  const expect = (op) => {
    if (!peek(op)) throw new Error(`expression '${text}': expected '${op}'`);
    i++;
  };
  const primary = () => {
    const t = ts[i++];
    if (!t) throw new Error(`expression '${text}': ends too soon`);
    if (t.op === "(") {
      const v = or();
      expect(")");
      return v;
    }
    if (t.op === "!") return !truthy(primary());
    if ("value" in t) return t.value;
    if (t.name === "true" || t.name === "false") return t.name === "true";
    if (t.name === "null") return null;
    if (peek("(")) {
      i++;
      const args = [];
      while (!peek(")")) {
        args.push(or());
        if (peek(",")) i++;
      }
      expect(")");
      const fn = context[t.name];
      if (typeof fn !== "function") throw new Error(`expression '${text}': no function ${t.name}() here`);
      return fn(...args);
    }
    const path = t.name.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== "");
    if (!(path[0] in context)) throw new Error(`expression '${text}': no context '${path[0]}'`);
    return path.reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), context);
  };
  const compare = () => {
    let v = primary();
    while (peek("==") || peek("!=")) {
      const op = ts[i++].op;
      const w = primary();
      v = op === "==" ? equal(v, w) : !equal(v, w);
    }
    return v;
  };
  const and = () => {
    let v = compare();
    while (peek("&&")) {
      i++;
      const w = compare();
      v = truthy(v) ? w : v;
    }
    return v;
  };
  const or = () => {
    let v = and();
    while (peek("||")) {
      i++;
      const w = and();
      v = truthy(v) ? v : w;
    }
    return v;
  };
  const v = or();
  if (i < ts.length) throw new Error(`expression '${text}': unexpected '${JSON.stringify(ts[i])}'`);
  return v;
}

/** A string with its `${{ ... }}` parts evaluated. */
function interpolate(text, context) {
  return String(text).replace(/\$\{\{(.*?)\}\}/g, (_, e) => {
    const v = evaluate(e, context);
    return v === null || v === undefined ? "" : String(v);
  });
}

/** An `if:` condition: with or without `${{ }}`; a condition that calls no status function implies `success() &&`. */
function condition(text, context) {
  if (text === undefined) return truthy(context.success());
  const e = String(text)
    .trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  const v = evaluate(e, context);
  return /\b(success|failure|always|cancelled)\(/.test(e) ? truthy(v) : truthy(context.success()) && truthy(v);
}

module.exports = { evaluate, interpolate, condition, truthy };
