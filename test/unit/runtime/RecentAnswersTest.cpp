//===- RecentAnswersTest.cpp - A host thread's last few lookups -----------===//

#include "distwar/recent_answers.h"

#include <gtest/gtest.h>

#include <utility>

using distwar::detail::RecentAnswers;

TEST(RecentAnswers, FindsWhatItRemembers) {
  RecentAnswers<std::pair<int, const void *>, unsigned> recent;
  int a = 0, b = 0;
  EXPECT_EQ(recent.find({0, &a}), nullptr);
  recent.remember({0, &a}, 7u);
  recent.remember({1, &a}, 8u);
  ASSERT_NE(recent.find({0, &a}), nullptr);
  EXPECT_EQ(*recent.find({0, &a}), 7u);
  EXPECT_EQ(*recent.find({1, &a}), 8u);
  // Another device or another key is another answer.
  EXPECT_EQ(recent.find({0, &b}), nullptr);
  EXPECT_EQ(recent.find({2, &a}), nullptr);
}

TEST(RecentAnswers, ForgetsTheOldestWhenFull) {
  RecentAnswers<int, int, 3> recent;
  for (int k = 0; k < 3; ++k)
    recent.remember(k, 10 * k);
  recent.remember(3, 30);
  EXPECT_EQ(recent.find(0), nullptr);
  for (int k = 1; k < 4; ++k) {
    ASSERT_NE(recent.find(k), nullptr) << k;
    EXPECT_EQ(*recent.find(k), 10 * k);
  }
  recent.remember(4, 40);
  EXPECT_EQ(recent.find(1), nullptr);
  EXPECT_EQ(*recent.find(4), 40);
}

TEST(RecentAnswers, AKeyOfZeroIsNotFoundBeforeItIsRemembered) {
  // Unused entries hold value-initialised keys: they must not answer.
  RecentAnswers<int, int> recent;
  EXPECT_EQ(recent.find(0), nullptr);
  recent.remember(5, 1);
  EXPECT_EQ(recent.find(0), nullptr);
}
