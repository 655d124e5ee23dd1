// Fixture: braces in comments, literals and preprocessor lines are not
// braces; each function here is 6 lines, over --limit 5.
#define OPEN {
/* { */
const char *text = "{{ \" {";
const char *raw = R"x(}" { )" })x";
int counted(int a) {
  char brace = '{'; // }
  int big = 1'000'000;
  a += brace + big;
  return a;
}
#if 0
#endif
void operator_call() {
  // }
  /* } */
  int a = 0;
  (void)a;
}
