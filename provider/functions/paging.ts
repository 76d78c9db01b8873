/** Paging of the reports: one call with `maxReturn`/`offset`, or with `allPages` calls of `pageSize` to a short page. */
import { MAX_RETURN_LIMIT } from "../api/methods";
import { CdnValidationError } from "../api/errors";
import { intArg } from "./args";

/** Paging arguments of every report that returns rows. */
export interface PagingArgs {
  /** Most rows to return (one call); not with `allPages`. */
  maxReturn?: number;
  /** Index of the first row (0 is the first); with `allPages`, where the first page starts. */
  offset?: number;
  /** Fetch every row, page after page. */
  allPages?: boolean;
  /** Rows per call with `allPages` (default {@link DEFAULT_PAGE_SIZE}). */
  pageSize?: number;
}

export const PAGING_ARGS = ["maxReturn", "offset", "allPages", "pageSize"] as const;
/** Rows per call with `allPages` unless `pageSize` says otherwise. */
export const DEFAULT_PAGE_SIZE = 1000;
/** A guard against a server that ignores `offset` and answers full pages forever. */
export const MAX_PAGES = 10_000;

export type Page = Pick<PagingArgs, "maxReturn" | "offset">;

/** Checks the paging arguments; returns a function that fetches the rows they ask for. */
export function pager(
  fn: string,
  args: Record<string, unknown>,
): <T>(fetch: (page: Page) => Promise<T[]>) => Promise<T[]> {
  const maxReturn = intArg(fn, "maxReturn", args.maxReturn);
  const offset = intArg(fn, "offset", args.offset);
  const all = args.allPages;
  if (all !== undefined && all !== null && typeof all !== "boolean")
    throw new CdnValidationError("allPages", "must be true or false", fn);
  const pageSize = intArg(fn, "pageSize", args.pageSize);
  if (!all) {
    if (pageSize !== undefined)
      throw new CdnValidationError("pageSize", "goes with allPages: true (use maxReturn for one page)", fn);
    const page = Object.fromEntries(Object.entries({ maxReturn, offset }).filter(([, v]) => v !== undefined));
    return (fetch) => fetch(page);
  }
  if (maxReturn !== undefined)
    throw new CdnValidationError(
      "maxReturn",
      "cannot be combined with allPages: true (use pageSize for the size of each call)",
      fn,
    );
  const size = pageSize ?? DEFAULT_PAGE_SIZE;
  if (size < 1 || size > MAX_RETURN_LIMIT)
    throw new CdnValidationError("pageSize", `must be between 1 and ${MAX_RETURN_LIMIT}, got ${size}`, fn);
  return async <T>(fetch: (page: Page) => Promise<T[]>) => {
    const rows: T[] = [];
    let at = offset ?? 0;
    for (let n = 0; n < MAX_PAGES; n++) {
      const page = await fetch({ maxReturn: size, offset: at });
      rows.push(...page);
      if (page.length < size) return rows;
      at += size;
    }
    throw new CdnValidationError(
      "pageSize",
      `${fn} still had rows after ${MAX_PAGES} pages of ${size}: use a larger pageSize or a narrower range`,
      fn,
    );
  };
}
