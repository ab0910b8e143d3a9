// The search index's one reader, compiled to WebAssembly (`wasm/`), driven
// alike in a browser, Deno and workerd. This file is glue: it hands the
// reader the manifest once, and for each search fetches together the
// files the reader says it needs, hands them over and asks again.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// At most this many rounds of fetches per search: the reader needs up to
// four (a page or nodes, near nodes, rows); a file that keeps being asked
// for is a damaged site.
const ROUNDS = 6;

export class WasmReader {
  // `module`: a WebAssembly.Module (workerd imports one) or the .wasm
  // file's bytes; `manifest`: search-index.json's bytes; `fetchFile(path)`:
  // a promise of a file's bytes (Uint8Array), or null when the site has
  // none.
  static async open(module, manifest, fetchFile) {
    const reader = new WasmReader(module, manifest, fetchFile);
    await reader.start();
    return reader;
  }

  constructor(module, manifest, fetchFile) {
    this.module = module;
    this.manifest = manifest;
    this.fetchFile = fetchFile;
  }

  // A fresh instance with the manifest open: at the start, and after a
  // trap, which leaves an instance's state unusable.
  async start() {
    const made = await WebAssembly.instantiate(this.module, {});
    this.exports = (made.instance ?? made).exports;
    if (this.exports.open(...this.put(this.manifest)) !== 1) {
      throw new Error(decoder.decode(this.output()));
    }
  }

  // Copies bytes into a buffer of the reader's; it takes the buffer.
  put(bytes) {
    const ptr = this.exports.alloc(bytes.length);
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  }

  // The last call's output, copied out. The buffer is taken after the
  // calls: a call that grew the memory would have detached an earlier one.
  output() {
    const { memory, output, output_len } = this.exports;
    const at = output();
    const len = output_len();
    return new Uint8Array(memory.buffer, at, len).slice();
  }

  // Answers a request's query string (`q=...&limit=...`): { status, body },
  // the body the answer's or the problem's JSON, as bytes.
  async search(query) {
    try {
      return await this.rounds(query);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      await this.start();
      return problem(`the search reader stopped (${error.message}); ask again`);
    }
  }

  async rounds(query) {
    for (let round = 0; round < ROUNDS; round++) {
      const status = this.exports.search(...this.put(encoder.encode(query)));
      if (status !== 0) return { status, body: this.output() };
      const names = JSON.parse(decoder.decode(this.output()));
      const files = await Promise.all(names.map((name) => this.fetchFile(name)));
      // Handed over and searched again in one turn: no other search runs
      // in between to drop them.
      names.forEach((name, i) => {
        if (files[i]) {
          this.exports.hand(...this.put(encoder.encode(name)), ...this.put(files[i]));
        } else {
          this.exports.lack(...this.put(encoder.encode(name)));
        }
      });
    }
    return problem("the search index kept asking for files: rebuild the site with `ontosite build`");
  }
}

function problem(detail) {
  const body = { type: "about:blank", title: "Internal Server Error", status: 500, detail };
  return { status: 500, body: encoder.encode(JSON.stringify(body)) };
}
