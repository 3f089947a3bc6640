#pragma once
#define LIB_SCALE 2.0f
#define LIB_FIELDS 2
