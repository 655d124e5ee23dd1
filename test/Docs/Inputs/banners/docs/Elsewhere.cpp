// Elsewhere.cpp - not checked: docs/ is not a source folder
