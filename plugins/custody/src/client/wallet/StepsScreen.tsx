export { OnboardingStepsScreen as default } from "./OnboardingScreens.tsx"
