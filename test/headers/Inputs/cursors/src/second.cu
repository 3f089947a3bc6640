#include "scatter.cuh"
