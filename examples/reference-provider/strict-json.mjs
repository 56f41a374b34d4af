// strict-json.mjs: a small JSON reader that is exactly as strict as the host.
//
// The host library parses a request with Rust's serde_json plus a few extra
// checks. A provider that wants to see the same request the host saw (and to
// recompute its input_digest) must refuse everything the host refuses:
//
//   * anything that is not RFC 8259 JSON: no comments, no trailing commas,
//     no NaN/Infinity, no leading zeros, no raw control characters in strings;
//   * a second value (or any non-whitespace) after the one top-level value;
//   * duplicate keys in any object, compared after decoding escapes, so
//     {"a":1,"\u0061":2} is a duplicate;
//   * nesting deeper than 32: a value's depth is the number of arrays/objects
//     around it (the top-level value has depth 0), and no value may exceed 32;
//   * integer tokens (no ".", "e" or "E") that fit neither i64 (when negative)
//     nor u64 (otherwise), and decimal/exponent tokens that overflow f64;
//   * "\u" escapes that leave a surrogate half alone (e.g. "\ud800").
//
// JSON.parse accepts duplicates and silently rounds numbers, so we cannot use
// it. This recursive-descent parser builds its own value tree:
//   null/true/false -> JS null/true/false, strings -> JS strings,
//   arrays -> JS arrays, objects -> null-prototype objects (so a key such as
//   "__proto__" is just data), numbers -> JsonNumber, which keeps the source
//   text because the digest must write integers exactly as they were sent.

/** Deepest allowed value depth (the top-level value has depth 0). */
export const MAX_DEPTH = 32;

const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y; // string characters needing no care
const LITERALS = [["true", true], ["false", false], ["null", null]];
const SIMPLE_ESCAPES = {
  __proto__: null,
  '"': '"', "\\": "\\", "/": "/",
  b: "\b", f: "\f", n: "\n", r: "\r", t: "\t",
};

/** A JSON number as it appeared on the wire. */
export class JsonNumber {
  constructor(text) {
    this.text = text; // the exact token, e.g. "100", "-0", "0.5e1"
    this.isInteger = !/[.eE]/.test(text); // serde_json reads these as i64/u64
    this.value = Number(text); // the nearest f64, correctly rounded
    Object.freeze(this);
  }
}

/** Thrown for any input the host's parser would refuse. */
export class JsonSyntaxError extends Error {}

/** Parses exactly one JSON value from `text` (already decoded from UTF-8). */
export function parseStrictJson(text) {
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.parseValue(0);
  parser.skipWhitespace();
  if (parser.pos !== text.length) parser.fail("trailing data after the JSON value");
  return value;
}

class Parser {
  constructor(text) {
    this.text = text;
    this.pos = 0;
  }

  fail(why) {
    throw new JsonSyntaxError(`${why} (at character ${this.pos})`);
  }

  // JSON whitespace is only space, tab, line feed and carriage return.
  skipWhitespace() {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos])) this.pos++;
  }

  eat(char) {
    if (this.text[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  expect(char) {
    if (!this.eat(char)) this.fail(`expected "${char}"`);
  }

  parseValue(depth) {
    // Checked before descending, so hostile input cannot exhaust the stack.
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    const char = this.text[this.pos];
    if (char === "{") return this.parseObject(depth);
    if (char === "[") return this.parseArray(depth);
    if (char === '"') return this.parseString();
    if (char === "-" || (char >= "0" && char <= "9")) return this.parseNumber();
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail("expected a JSON value");
  }

  parseObject(depth) {
    const object = Object.create(null);
    this.pos++; // "{"
    this.skipWhitespace();
    if (this.eat("}")) return object;
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail("expected a string key");
      const key = this.parseString(); // decoded, so escapes cannot hide a duplicate
      if (Object.hasOwn(object, key)) this.fail(`duplicate key ${JSON.stringify(key)}`);
      this.skipWhitespace();
      this.expect(":");
      this.skipWhitespace();
      object[key] = this.parseValue(depth + 1);
      this.skipWhitespace();
      if (this.eat("}")) return object;
      this.expect(",");
      this.skipWhitespace();
    }
  }

  parseArray(depth) {
    const array = [];
    this.pos++; // "["
    this.skipWhitespace();
    if (this.eat("]")) return array;
    for (;;) {
      array.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      if (this.eat("]")) return array;
      this.expect(",");
      this.skipWhitespace();
    }
  }

  parseString() {
    this.pos++; // opening quote
    let out = "";
    for (;;) {
      PLAIN_RUN.lastIndex = this.pos;
      const run = PLAIN_RUN.exec(this.text)[0];
      out += run;
      this.pos += run.length;
      const char = this.text[this.pos];
      if (char === '"') {
        this.pos++;
        return out;
      }
      if (char === "\\") out += this.parseEscape();
      else if (char === undefined) this.fail("unterminated string");
      else this.fail("raw control character in a string");
    }
  }

  parseEscape() {
    const letter = this.text[this.pos + 1];
    this.pos += 2;
    if (letter !== undefined && Object.hasOwn(SIMPLE_ESCAPES, letter)) return SIMPLE_ESCAPES[letter];
    if (letter !== "u") return this.fail("invalid escape sequence");
    const unit = this.readHex4();
    if (unit >= 0xdc00 && unit <= 0xdfff) this.fail("lone low surrogate escape");
    if (unit < 0xd800 || unit > 0xdbff) return String.fromCharCode(unit);
    // A high surrogate is only valid when an escaped low surrogate follows.
    if (!this.text.startsWith("\\u", this.pos)) this.fail("lone high surrogate escape");
    this.pos += 2;
    const low = this.readHex4();
    if (low < 0xdc00 || low > 0xdfff) this.fail("lone high surrogate escape");
    return String.fromCharCode(unit, low);
  }

  readHex4() {
    const hex = this.text.slice(this.pos, this.pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape");
    this.pos += 4;
    return Number.parseInt(hex, 16);
  }

  parseNumber() {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail("malformed number");
    const number = new JsonNumber(match[0]);
    if (number.isInteger) {
      // Without a fraction or exponent the host reads an i64/u64; anything
      // larger would be silently rounded, so the host refuses it instead.
      // (u64 max has 20 digits: a longer token is out of range, no BigInt needed.)
      const digits = number.text.replace("-", "");
      const big = digits.length > 20 ? null : BigInt(number.text);
      const fits = big !== null && (number.text.startsWith("-") ? big >= I64_MIN : big <= U64_MAX);
      if (!fits) this.fail(`integer ${number.text.slice(0, 40)} is outside i64/u64`);
    } else if (!Number.isFinite(number.value)) {
      this.fail("number does not fit a finite f64");
    }
    this.pos += number.text.length;
    return number;
  }
}
