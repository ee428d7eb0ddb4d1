import { describe, expect, it } from "vitest";
import { DocketError } from "../../src/errors/errors.js";
import { RouteTable } from "../../src/http/routes.js";
import { operations } from "../../src/operations/registry.js";

const table = new RouteTable(operations);
const name = (method: string, path: string) => table.match(method, path)?.op.name;
const addr = "0x00000000000000000000000000000000DeaDBeef";

/** The operation router keeps express's matching rules, which the routes were written for. */
describe("RouteTable", () => {
  it("finds every operation at its own path, by method, with its parameters", () => {
    for (const op of operations) {
      const path = op.http.path.replace(/:([A-Za-z_]+)/g, addr);
      const m = table.match(op.http.method, path);
      // GET /cases/verify-tx does not exist: that path is a case address to GET /cases/:address.
      expect(m?.op.name, `${op.http.method} ${path}`).toBe(op.name);
      expect(Object.values(m?.params ?? {}).every((v) => v === addr)).toBe(true);
    }
    expect(name("POST", "/cases/verify-tx")).toBe("verify_transaction");
    expect(name("GET", "/cases/verify-tx")).toBe("get_case");
    expect(table.match("GET", `/cases/${addr}`)?.params).toEqual({ address: addr });
  });

  it("serves HEAD from the GET route, and nothing for other methods", () => {
    expect(name("HEAD", `/cases/${addr}`)).toBe("get_case");
    for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) expect(name(method, `/cases/${addr}`)).toBeUndefined();
    expect(name("GET", `/cases/${addr}/vote`)).toBeUndefined();
  });

  it("takes one trailing slash and any case in fixed segments, keeps parameters as sent", () => {
    expect(name("GET", "/stats/overview/")).toBe("get_stats_overview");
    expect(name("GET", "/stats/overview//")).toBeUndefined();
    expect(name("GET", "/STATS/Overview")).toBe("get_stats_overview");
    expect(table.match("GET", "/CASES/0xAbC")?.params).toEqual({ address: "0xAbC" });
  });

  it("wants a non-empty parameter and an absolute path", () => {
    expect(name("GET", "/cases//evidence")).toBeUndefined();
    expect(name("GET", "/cases/")).toBe("list_cases");
    expect(name("GET", "cases")).toBeUndefined();
    expect(name("GET", "/")).toBeUndefined();
    expect(name("GET", "/cases/a/b/c/d")).toBeUndefined();
  });

  it("percent-decodes parameters and refuses what does not decode", () => {
    expect(table.match("GET", "/agent/a%2Fb%20c")?.params).toEqual({ address: "a/b c" });
    expect(() => table.match("GET", "/cases/%ZZ")).toThrow(DocketError);
    expect(() => table.match("GET", "/cases/%ZZ")).toThrow(/percent-encoding/);
    // A method no route serves there is not a decoding question.
    expect(table.match("PUT", "/cases/%ZZ")).toBeUndefined();
  });

  it("lists the methods served at a path, for 405's Allow", () => {
    expect(table.allowed(`/cases/${addr}`).sort()).toEqual(["GET", "HEAD"]);
    expect(table.allowed("/cases").sort()).toEqual(["GET", "HEAD", "POST"]);
    expect(table.allowed(`/cases/${addr}/evidence`).sort()).toEqual(["GET", "HEAD", "POST"]);
    expect(table.allowed("/cases/%ZZ").sort()).toEqual(["GET", "HEAD"]);
    expect(table.allowed("/nope")).toEqual([]);
  });
});
