/**
 * What the package's own zone classes do at registration (provider/resources/zoneResource.ts), added to the SDKs
 * Pulumi's generators write (scripts/generate-sdks.js runs it after them): a schema cannot set a resource option.
 * - A kind the API cannot delete (`deletable: false` in provider/api/zoneKinds.ts) is registered with
 *   `retainOnDelete`, so a preview shows its removal as `delete [retain]` (pkg/backend/display/rows.go); a kind it
 *   deletes, with `deleteBeforeReplace` (a replacement needs the zone's name). A program's own option wins.
 * - Python: each zone carries its place in the batch of zones one synchronous run of the program declares
 *   (`__autoNameScope`, provider/resources/host/batch.ts), so the plugin's check completing the batch fails a preview
 *   with every name clash at once (the engine stops at the first failed check: docs/pulumi-engine.md); and the
 *   host's SIGINT when the engine ends a deployment (sdk/python/cmd/pulumi-language-python/main.go, `cmd.Cancel`)
 *   ends the program without a KeyboardInterrupt traceback, unless the program set its own handler.
 * Each edit finds its anchor in the generated text or fails, naming the file: a generator that changed is seen.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { loadSource } = require("./schema");

/** `text` with `added` right after the first `anchor`, or an error naming the file. */
function after(file, text, anchor, added) {
  const at = text.indexOf(anchor);
  if (at < 0)
    throw new Error(`sdk-overlay: '${anchor}' not in ${file}: the generator changed (scripts/sdk-overlay.js)`);
  return text.slice(0, at + anchor.length) + added + text.slice(at + anchor.length);
}

/** Edits `file` with `edit(text)`. */
const patch = (file, edit) => fs.writeFileSync(file, edit(fs.readFileSync(file, "utf8")));

const PYTHON_MODULE = `"""Added by pulumi-cdn-zones' scripts/sdk-overlay.js (not generated): what its own zone classes do.

A kind the API cannot delete is registered with retain_on_delete (a preview shows its removal as delete [retain]), a
kind it deletes with delete_before_replace. Each zone carries its place in the batch of zones one synchronous run of
the program declares, so the plugin fails a preview with every name clash at once. And when Pulumi's Python host
interrupts the program because the engine ended the deployment (its error is above), the program ends quietly
instead of with a KeyboardInterrupt traceback.
"""
import asyncio
import json
import os
import signal
import sys
import uuid

import pulumi

_run = None


def _stopped(signum, frame):
    """SIGINT from the language host: the engine ended the deployment, and said why."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(1)


try:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _stopped)
except ValueError:  # not the main thread: leave Python's own handler
    pass


def options(deletable: bool) -> pulumi.ResourceOptions:
    """The kind's default options; the program's own win (ResourceOptions.merge)."""
    if deletable:
        return pulumi.ResourceOptions(delete_before_replace=True)
    return pulumi.ResourceOptions(retain_on_delete=True)


def place(resource_name: str):
    """The zone's place as JSON text; the run's first zone waits for the run's end to carry the batch's size."""
    global _run
    if _run is None:
        loop = asyncio.get_event_loop()
        run = _run = {"batch": str(uuid.uuid4()), "size": 0, "count": loop.create_future()}

        def end():
            global _run
            _run = None
            run["count"].set_result(run["size"])

        loop.call_soon(end)
    run = _run
    seq = run["size"]
    run["size"] += 1

    def text(count=None):
        p = {"resource": resource_name, "batch": run["batch"], "seq": seq}
        return json.dumps(p if count is None else {**p, "count": count})

    return pulumi.Output.from_input(run["count"]).apply(text) if seq == 0 else text()
`;

const lowerFirst = (s) => s[0].toLowerCase() + s.slice(1);
const snake = (s) => s.replace(/[A-Z]/g, (c, i) => (i ? "_" : "") + c.toLowerCase());

/** Each language's edit of one zone class: `dir` the language's SDK folder. */
const EDITS = {
  python(dir, { type, deletable }) {
    const file = path.join(dir, "pulumi_cdn", `${snake(type)}.py`);
    patch(file, (t) => {
      t = after(file, t, "from . import _utilities\n", "from . import _zones\n");
      const defaults = "opts = pulumi.ResourceOptions.merge(_utilities.get_resource_opts_defaults(), opts)\n";
      t = after(
        file,
        t,
        defaults,
        `        opts = pulumi.ResourceOptions.merge(_zones.options(${deletable ? "True" : "False"}), opts)\n`,
      );
      const props = `__props__ = ${type}Args.__new__(${type}Args)\n`;
      return after(file, t, props, `            __props__.__dict__["__autoNameScope"] = _zones.place(resource_name)\n`);
    });
  },
  nodejs(dir, { type, deletable }) {
    const file = path.join(dir, `${lowerFirst(type)}.ts`);
    const option = deletable ? "deleteBeforeReplace" : "retainOnDelete";
    const anchor = "opts = pulumi.mergeOptions(utilities.resourceOptsDefaults(), opts);\n";
    patch(file, (t) => after(file, t, anchor, `        opts = pulumi.mergeOptions({ ${option}: true }, opts);\n`));
  },
  go(dir, { type, deletable }) {
    const file = path.join(dir, "cdn", `${lowerFirst(type)}.go`);
    const option = deletable ? "DeleteBeforeReplace" : "RetainOnDelete";
    const anchor = `opts ...pulumi.ResourceOption) (*${type}, error) {\n`;
    // First in the list: an option the program gives comes later and wins.
    const added = `\topts = append([]pulumi.ResourceOption{pulumi.${option}(true)}, opts...)\n`;
    patch(file, (t) => after(file, t, anchor, added));
  },
  dotnet(dir, { type, deletable }) {
    const file = path.join(dir, `${type}.cs`);
    const option = deletable ? "DeleteBeforeReplace" : "RetainOnDelete";
    const anchor = "var defaultOptions = new CustomResourceOptions\n            {\n";
    patch(file, (t) => after(file, t, anchor, `                ${option} = true,\n`));
  },
};

/** Applies the overlay to the SDKs in `dirs` (language -> folder), for every zone kind of the table. */
function overlaySdks(dirs) {
  const { ZONE_KINDS, kindInfo } = loadSource("api/kinds.ts");
  for (const [lang, dir] of Object.entries(dirs)) {
    if (lang === "python") fs.writeFileSync(path.join(dir, "pulumi_cdn", "_zones.py"), PYTHON_MODULE);
    for (const kind of ZONE_KINDS) EDITS[lang](dir, kindInfo(kind));
  }
}

module.exports = { overlaySdks };
