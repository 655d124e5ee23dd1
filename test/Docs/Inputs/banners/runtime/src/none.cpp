#include <cstdio>
// none.cpp - too late: the banner is the first line
