#include "CinnOpenAPI.h"

// #embed is C23; clang takes it in the package's C mode too, with this warning.
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char document[] = {
#embed "../CinnServer/API/openapi.yaml"
};

const unsigned char *cinn_openapi_yaml(size_t *count) {
    *count = sizeof document;
    return document;
}
