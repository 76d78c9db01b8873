#!/usr/bin/env node
/**
 * Part of `npm run build`: writes provider/types-ts3.8/, the package's declarations in the syntax of TypeScript
 * 3.8, which package.json's `typesVersions` gives to compilers older than 5.0. Why: the Node.js language host
 * compiles a `.ts` program with the project's own `typescript`, and without one with the TypeScript 3.8.3 that
 * `@pulumi/pulumi` vendors (typescript-shim.js); that compiler cannot parse declarations written with newer
 * syntax and silently types the whole package as `any`.
 *
 * Why not downlevel-dts (the usual tool): it rewrites `type` modifiers and named tuple members, but leaves
 * template literal types, key remapping in mapped types, variadic tuples and `infer X extends C`, which our
 * method-table types are made of; and its dependency `typescript@next` does not resolve here. So this script uses
 * the workspace's own compiler: a type alias built with such syntax is expanded, where it is used with concrete
 * arguments, into the type the checker computes for it (the same rows and options a 5.x user sees); the generic
 * alias itself becomes `any`, since 3.8 cannot express it. Then `tests/unit/downlevel-types.host.test.ts` compiles a
 * program against the result with the vendored 3.8.3 and requires no diagnostic in any of our files.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const PKG = path.resolve(__dirname, "../provider");
/** The folder `typesVersions` points at; it mirrors the package's paths (dist/..., testing.d.ts, emulator.d.ts). */
const OUT_DIR = "types-ts3.8";
const ENTRIES = ["testing.d.ts", "emulator.d.ts"];

const K = ts.SyntaxKind;

/** Whether `node` is written with syntax TypeScript 3.8 cannot parse (in a declaration file). */
function isNewSyntax(node) {
  if (node.kind === K.TemplateLiteralType || node.kind === K.NamedTupleMember) return true;
  if (ts.isMappedTypeNode(node) && node.nameType) return true;
  if (ts.isInferTypeNode(node) && node.typeParameter.constraint) return true;
  if (ts.isTypeParameterDeclaration(node) && node.modifiers && node.modifiers.length) return true;
  if (ts.isTupleTypeNode(node)) {
    return node.elements.some((e) => e.kind === K.RestType && !ts.isArrayTypeNode(e.type));
  }
  return false;
}

function containsNewSyntax(node) {
  if (isNewSyntax(node)) return true;
  return Boolean(ts.forEachChild(node, (c) => containsNewSyntax(c) || undefined));
}

/** The type alias declaration a type reference (`X<...>` or `import("./x").X<...>`) names, through imports. */
function aliasOf(checker, ref) {
  const name = ts.isTypeReferenceNode(ref) ? ref.typeName : ref.qualifier;
  let symbol = name && checker.getSymbolAtLocation(name);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol && symbol.declarations && symbol.declarations[0];
  return decl && ts.isTypeAliasDeclaration(decl) ? decl : undefined;
}

const isReference = (n) => ts.isTypeReferenceNode(n) || ts.isImportTypeNode(n);

/** Whether a type node mentions a type parameter (or `infer`, `this`): then the checker cannot give it a concrete type. */
function isGeneric(checker, node) {
  if (node.kind === K.ThisType || ts.isInferTypeNode(node)) return true;
  if (ts.isTypeReferenceNode(node)) {
    const symbol = checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.TypeParameter) return true;
  }
  return Boolean(ts.forEachChild(node, (c) => isGeneric(checker, c) || undefined));
}

/**
 * The aliases 3.8 cannot take as written: those written with newer syntax, and those whose body names one
 * of them (so that every concrete use of either is expanded), found until the set stops growing.
 */
function taintedAliases(checker, files) {
  const aliases = [];
  const collect = (n) => {
    if (ts.isTypeAliasDeclaration(n)) aliases.push(n);
    ts.forEachChild(n, collect);
  };
  files.forEach(collect);
  const tainted = new Set(aliases.filter((a) => containsNewSyntax(a.type)));
  const namesTainted = (n) =>
    (isReference(n) && tainted.has(aliasOf(checker, n))) ||
    Boolean(ts.forEachChild(n, (c) => namesTainted(c) || undefined));
  for (let grew = true; grew;) {
    grew = false;
    for (const a of aliases) {
      if (!tainted.has(a) && namesTainted(a.type)) {
        tainted.add(a);
        grew = true;
      }
    }
  }
  return tainted;
}

const EXPAND_FLAGS =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.InTypeAlias |
  ts.NodeBuilderFlags.IgnoreErrors |
  ts.NodeBuilderFlags.MultilineObjectLiterals |
  ts.NodeBuilderFlags.UseFullyQualifiedType;

/** Rewrites what the checker printed into 3.8 syntax: tuple member names dropped, template literal types widened. */
function plainSyntax(context) {
  const visit = (node) => {
    if (node.kind === K.NamedTupleMember) {
      let type = ts.visitNode(node.type, visit);
      if (node.questionToken) type = ts.factory.createOptionalTypeNode(type);
      if (node.dotDotDotToken) type = ts.factory.createRestTypeNode(type);
      return type;
    }
    if (node.kind === K.TemplateLiteralType) return ts.factory.createKeywordTypeNode(K.StringKeyword);
    if (isNewSyntax(node)) return ts.factory.createKeywordTypeNode(K.AnyKeyword);
    return ts.visitEachChild(node, visit, context);
  };
  return visit;
}

/**
 * The transformer of one declaration file. `expanding`: only expand the concrete uses of tainted aliases (a
 * round); otherwise the last pass: `type` modifiers dropped, tainted generic aliases made `any`, the rest of
 * the newer syntax rewritten. `count.expanded` tells whether a round did anything.
 */
function downlevel(checker, tainted, { expanding, count }) {
  return (context) => {
    const plain = plainSyntax(context);
    const expand = (typeNode, enclosing) => {
      count.expanded++;
      const type = checker.getTypeFromTypeNode(typeNode);
      const built = checker.typeToTypeNode(type, enclosing, EXPAND_FLAGS);
      return built || ts.factory.createKeywordTypeNode(K.AnyKeyword);
    };
    const visit = (node) => {
      if (ts.isTypeAliasDeclaration(node) && tainted.has(node)) {
        if (!node.typeParameters && containsNewSyntax(node.type)) {
          return ts.factory.updateTypeAliasDeclaration(
            node,
            node.modifiers,
            node.name,
            undefined,
            expand(node.type, node),
          );
        }
        if (expanding) return ts.visitEachChild(node, visit, context);
        const body = node.typeParameters ? ts.factory.createKeywordTypeNode(K.AnyKeyword) : node.type;
        return ts.factory.updateTypeAliasDeclaration(node, node.modifiers, node.name, node.typeParameters, body);
      }
      if (isReference(node) && tainted.has(aliasOf(checker, node)) && !isGeneric(checker, node)) {
        return expand(node, node);
      }
      if (expanding) return ts.visitEachChild(node, visit, context);
      if ((ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) && node.isTypeOnly) {
        const update = ts.isImportSpecifier(node) ? ts.factory.updateImportSpecifier : ts.factory.updateExportSpecifier;
        return update(node, false, node.propertyName, node.name);
      }
      if (isNewSyntax(node)) return plain(node);
      return ts.visitEachChild(node, visit, context);
    };
    return (file) => ts.visitNode(file, visit);
  };
}

/** `import("/abs/path/x")` as the checker prints an inaccessible type, made relative to the file written. */
function relativeImports(text, fromFile) {
  return text.replace(/import\("([^"]+)"\)/g, (all, spec) => {
    if (!path.isAbsolute(spec)) return all;
    const inModules = /\/node_modules\/(?:@types\/)?(.+)$/.exec(spec);
    if (inModules) return `import("${inModules[1].replace(/\/index$/, "")}")`;
    let rel = path.relative(path.dirname(fromFile), spec).split(path.sep).join("/");
    if (!rel.startsWith(".")) rel = `./${rel}`;
    return `import("${rel}")`;
  });
}

function declarationFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...declarationFiles(p));
    else if (e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

const COMPILER_OPTIONS = {
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  types: ["node"],
};
/** Rounds of expansion before giving up: an expansion that keeps naming tainted aliases is a bug here. */
const MAX_ROUNDS = 8;

/** One pass over `texts` (file name -> declaration text, changed in place); how many types it expanded. */
function pass(texts, options) {
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const readFile = host.readFile;
  host.readFile = (f) => (texts.has(f) ? texts.get(f) : readFile.call(host, f));
  host.getSourceFile = (f, lang) => {
    const text = host.readFile(f);
    return text === undefined ? undefined : ts.createSourceFile(f, text, lang, true);
  };
  const program = ts.createProgram([...texts.keys()], COMPILER_OPTIONS, host);
  const checker = program.getTypeChecker();
  const sources = [...texts.keys()].map((f) => program.getSourceFile(f));
  const count = { expanded: 0 };
  const result = ts.transform(sources, [downlevel(checker, taintedAliases(checker, sources), { ...options, count })]);
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  for (const file of result.transformed) {
    texts.set(file.fileName, relativeImports(printer.printFile(file), file.fileName));
  }
  result.dispose();
  return count.expanded;
}

/** Writes `pkg`/types-ts3.8/ from `pkg`'s built declarations; returns the files written (relative to the package). */
function writeDownlevelTypes(pkg = PKG) {
  const files = [...declarationFiles(path.join(pkg, "dist")), ...ENTRIES.map((e) => path.join(pkg, e))];
  const texts = new Map(files.map((f) => [f, fs.readFileSync(f, "utf8")]));
  for (let round = 1; pass(texts, { expanding: true }) > 0; round++) {
    if (round === MAX_ROUNDS) throw new Error(`downlevel-types: types still expanding after ${MAX_ROUNDS} rounds`);
  }
  pass(texts, { expanding: false });
  const outRoot = path.join(pkg, OUT_DIR);
  fs.rmSync(outRoot, { recursive: true, force: true });
  const written = [];
  for (const [file, text] of texts) {
    const rel = path.relative(pkg, file);
    fs.mkdirSync(path.dirname(path.join(outRoot, rel)), { recursive: true });
    fs.writeFileSync(path.join(outRoot, rel), text);
    written.push(path.join(OUT_DIR, rel));
  }
  return written;
}

module.exports = { writeDownlevelTypes, OUT_DIR };

if (require.main === module) writeDownlevelTypes();
