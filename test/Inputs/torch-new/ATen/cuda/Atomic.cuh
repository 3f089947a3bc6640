// Self-written stand-in for newer PyTorch's ATen/cuda/Atomic.cuh.
#pragma once
#include <torch/headeronly/cuda/Atomic.h>
