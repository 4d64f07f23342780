#include "CinnFoodData.h"

// #embed is C23; clang takes it in the package's C mode too, with this warning.
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char foods[] = {
#embed "foods.tsv"
};

static const unsigned char portions[] = {
#embed "portions.tsv"
};

const unsigned char *cinn_built_in_foods(size_t *count) {
    *count = sizeof foods;
    return foods;
}

const unsigned char *cinn_built_in_portions(size_t *count) {
    *count = sizeof portions;
    return portions;
}
