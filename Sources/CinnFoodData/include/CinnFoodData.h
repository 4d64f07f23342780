#ifndef CINN_FOOD_DATA_H
#define CINN_FOOD_DATA_H

#include <stddef.h>

/// The bytes of the built-in food file (`Sources/CinnFoodData/foods.tsv`, the format of `BuiltInFoodFile`), embedded
/// at build time; their number is written to `count`.
const unsigned char *cinn_built_in_foods(size_t *count);

/// The bytes of the built-in foods' household portions (`Sources/CinnFoodData/portions.tsv`, the format of
/// `BuiltInFoodFile.decodePortions`), embedded at build time; their number is written to `count`.
const unsigned char *cinn_built_in_portions(size_t *count);

#endif
