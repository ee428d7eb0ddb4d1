import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pages = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "bench/README.md",
];
const text = (page: string) => readFileSync(join(ROOT, page), "utf8");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The anchors of a page's headings (outside code blocks). */
function anchors(md: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of md.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) out.add(slug(line.replace(/^#+ /, "")));
  }
  return out;
}

/** Relative links of a page, outside code blocks: [text](target). */
function links(md: string): string[] {
  const prose = md.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((l) => !/^[a-z]+:/.test(l));
}

describe("the docs", () => {
  it("are all linked from the README, which stays a front door (under 250 lines)", () => {
    const readme = text("README.md");
    for (const page of pages.filter((p) => p !== "README.md")) expect(readme, page).toContain(`](${page})`);
    expect(readme.split("\n").length).toBeLessThan(250);
  });

  for (const page of pages) {
    it(`${page}: every relative link points at a file that exists, and at a heading it has`, () => {
      for (const link of links(text(page))) {
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path === "" ? page : relative(ROOT, join(ROOT, dirname(page), path));
        expect(existsSync(join(ROOT, target)), `${page} -> ${link}`).toBe(true);
        if (anchor && target.endsWith(".md")) expect(anchors(text(target)), `${page} -> ${link}`).toContain(anchor);
      }
    });
  }

  it("no page sends the reader back to the README for its own subject", () => {
    for (const page of pages.filter((p) => p.startsWith("docs/"))) {
      expect(text(page), page).not.toMatch(/the README's|see the README|\(see the README\)/i);
    }
  });
});
