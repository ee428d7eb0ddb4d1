import { z } from "zod";

/** A history's page: `limit` entries after `cursor` (a page's nextCursor), newest filing first. */
export const historyPage = {
  limit: z.number().int().min(1).max(100).default(20).describe("Cases per page, 1 to 100 (default 20)"),
  cursor: z
    .string()
    .min(1)
    .max(64)
    .describe("The next page: the nextCursor of the page before; the newest cases when left out")
    .optional(),
};
