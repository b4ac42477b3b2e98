// static/js/exporting.js in node: every file the page saves is named from one slug, trimmed of dashes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { slug } from "../../static/js/exporting.js";

test("a name becomes a lower-case ASCII slug without accents or runs of dashes", () => {
  assert.equal(slug("In flight: the basics (fork)"), "in-flight-the-basics-fork");
  assert.equal(slug("--Ça va? (fork)--"), "ca-va-fork");
  assert.equal(slug("Résumé  -  été"), "resume-ete");
});

test("a name with nothing to keep is saved as scenario", () => {
  for (const name of ["", null, undefined, "!!!", "---"]) assert.equal(slug(name), "scenario", String(name));
});

test("a slug is at most 60 characters and never ends on a dash it was cut at", () => {
  assert.equal(slug("x".repeat(80)), "x".repeat(60));
  assert.equal(slug("a".repeat(59) + " b"), "a".repeat(59));
});
