// What the viewer server answers for each URL: the embedded web assets and the /api/*
// endpoints of docs/viewer-api.md. Bad or missing query parameters are 400, unknown paths,
// tracks, events and kernels 404, each with a one-line {"error": ...}.
#pragma once

#include <span>

#include "viewer/http_request.h"
#include "viewer/viewer_data.h"
#include "viewer/web_assets.h"

namespace gpuscope::viewer {

HttpResponse HandleViewerRequest(ViewerData& data, std::span<const EmbeddedFile> assets,
                                 const HttpRequest& request);

}  // namespace gpuscope::viewer
