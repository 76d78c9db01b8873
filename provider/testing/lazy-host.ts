/**
 * A provider host opened on first use. The engine loads a provider plugin when a resource first needs it,
 * so a program that declares nothing (a report built from functions) or an empty stack's refresh starts
 * no dynamic-provider host; the first call waits for the host and configures it before it goes through.
 */
import type { ProviderHost } from "./host-client";

type Props = Record<string, unknown>;

/** Opens the host on the first call: `connect` starts (or finds) it, then Configure goes first, once. */
export class LazyHost implements ProviderHost {
  private opened: Promise<ProviderHost> | undefined;
  private host: ProviderHost | undefined;
  private configured: { acceptSecrets: boolean } | undefined;

  /**
   * @param connect resolves with a client of the started host; called at most once
   * @param config the whole stack config (namespaced keys, secrets plain), Configure's arguments
   */
  constructor(
    private readonly connect: () => Promise<ProviderHost>,
    private readonly config: Record<string, string>,
  ) {}

  private get(): Promise<ProviderHost> {
    this.opened ??= this.connect().then(async (h) => {
      this.host = h;
      this.configured = await h.configure(this.config);
      return h;
    });
    return this.opened;
  }

  /** Opens the host now (a host the driver started with the runner is configured before the program runs). */
  async configure(): Promise<{ acceptSecrets: boolean }> {
    await this.get();
    return this.configured!;
  }

  async check(...a: Parameters<ProviderHost["check"]>) {
    return (await this.get()).check(...a);
  }

  async diff(...a: Parameters<ProviderHost["diff"]>) {
    return (await this.get()).diff(...a);
  }

  async create(...a: Parameters<ProviderHost["create"]>) {
    return (await this.get()).create(...a);
  }

  async read(...a: Parameters<ProviderHost["read"]>) {
    return (await this.get()).read(...a);
  }

  async update(...a: Parameters<ProviderHost["update"]>): Promise<Props> {
    return (await this.get()).update(...a);
  }

  async delete(...a: Parameters<ProviderHost["delete"]>): Promise<void> {
    return (await this.get()).delete(...a);
  }

  /** Closes the host's channel if it was opened. */
  close(): void {
    this.host?.close();
  }
}
