#ifndef CINN_OPENAPI_H
#define CINN_OPENAPI_H

#include <stddef.h>

/// The bytes of the OpenAPI document (`Sources/CinnServer/API/openapi.yaml`), embedded at build time; their number
/// is written to `count`.
const unsigned char *cinn_openapi_yaml(size_t *count);

#endif
