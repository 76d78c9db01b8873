/**
 * The thin provider of StackId (resources/stackId.ts), as this module's whole `module.exports`: an installed
 * package's state stores `require("pulumi-cdn-zones/p/stack")`. It never calls the API and needs no settings: its
 * create draws the stack instance's random id once, and every later operation keeps it. Part of every state's
 * contract, like the zone kinds' providers (tests/unit/serialized-require.test.ts). Its outputs' `retired` is written by
 * `cdn-zones settle` (cli/record.ts); the provider only keeps it.
 */
import type * as pulumi from "@pulumi/pulumi";

// Each operation that holds the outputs tells the host's zones which stack instance this is (host/identity.ts).
const learn = <T>(outs: T): T => (require("pulumi-cdn-zones/h").learnStack(outs), outs);
const provider: pulumi.dynamic.ResourceProvider = {
  check: async (_olds, news) => ({ inputs: news }),
  diff: async (_id, olds) => (learn(olds), { changes: false }),
  create: async () => ({ id: "stack", outs: learn({ nonce: require("crypto").randomBytes(16).toString("hex") }) }),
  read: async (id, props) => ({ id, props: learn(props) }),
  update: async (_id, olds) => ({ outs: olds }),
  delete: async () => undefined,
};

export = provider;
