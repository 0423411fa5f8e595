// The Source tab of a kernel page (docs/viewer-api.md, /api/kernel's "source"): the kernel's
// source page from analysis/source, the same values `gpuscope source` prints, encoded for
// src/viewer/web/code_view.js, which only lays them out (heat colours are each value's share of
// the kernel total sent with it).
#pragma once

#include <string>

#include "analysis/source/source_view.h"

namespace gpuscope::viewer {

// {"available":true,"message":<note or "">,"has_lines","has_sass","lines_note":<how to get
//  lines, when has_lines is false, else "">,
//  "columns":[{"name":<ncu header>,"kind":"count"|"excess"|"samples","total":N|null}],
//  "stall_reasons":[{"name":"stall_long_sb","samples":N}] (kernel totals, most first),
//  "lines":[{"file":<base name>|null,"path":<as recorded>|null,"line":N|null,"text":<code>|null,
//            "values":[per column N|null],"stalls":[[<reason>,N]...],"instructions":[i...]}],
//  "instructions":[{"pc":"0x0130","function":<mangled>,"sass":<text>|null,"line":<index into
//                   lines>,"values":[...],"stalls":[...]}]}
// Columns are the page's columns this kernel has values in, except the per-reason stall
// columns, which are "stalls" per row. `source` nullptr or without rows:
// {"available":false,"message":<why, one line>}.
std::string KernelSourceJson(const analysis::source::KernelSource* source);

}  // namespace gpuscope::viewer
