import { z } from "zod";
import { CURSOR_PATTERN } from "../../formats.js";

/** A history's page: `limit` entries after `cursor` (a page's nextCursor), newest filing first. */
export const historyPage = {
  limit: z.number().int().min(1).max(100).default(20).describe("Cases per page, 1 to 100 (default 20)"),
  cursor: z
    .string()
    .max(64)
    .regex(new RegExp(CURSOR_PATTERN), "not a cursor: pass a page's nextCursor as it came")
    .describe("The next page: the nextCursor of the page before; the newest cases when left out")
    .optional(),
};
