import './sign-in-link.type';
import './sign-in-link.mutations';
