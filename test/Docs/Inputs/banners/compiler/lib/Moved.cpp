//===- Old.cpp - the banner of the file before it was renamed -------------===//
int moved;
