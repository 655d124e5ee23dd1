// Fixture: tables, stored lambdas and member initialisers are no function
// bodies; a constructor's body after its initialisers is (6 lines).
int table[] = {
    1,
    2,
    3,
    4,
    5,
};
auto stored = [](int a) {
  a += 1;
  a += 2;
  a += 3;
  return a;
};
struct Holder {
  int x;
  int y;
  Holder(int a) : x{a}, y(a) {
    x += 1;
    y += 1;
    x += y;
    y += x;
  }
};
