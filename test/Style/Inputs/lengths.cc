// Fixture for function-lengths.py with --limit 5: bodies of 5 and 6 lines.
namespace outer {
int fits(int a) {
  a += 1;
  a += 2;
  return a;
}

struct Widget {
  int over(int a) const {
    a += 1;
    a += 2;
    a += 3;
    return a;
  }
};
} // namespace outer
